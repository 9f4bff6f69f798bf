import type { AppDeps, Requester } from '../../app/request-context';
import { AccessToken, ApiKey } from '../../db/entities';
import { Errors } from '../../errors';
import { hashSecret } from '../../security/secrets';
import { tokenFromParameter } from './access-token.service';
import { requestMatchesKey, type RequestOrigin } from './host-binding';

export interface PresentedCredentials extends RequestOrigin {
  operation: string;
  apiKey?: string;
  accessToken?: string;
}

/** The stored key a presented secret names, if any. */
function findApiKey(deps: AppDeps, secret: string): Promise<ApiKey | null> {
  return deps.dataSource.getRepository(ApiKey).findOneBy({ keyHash: hashSecret(secret) });
}

/** The key of a lookup: it exists, is not revoked and was sent from its host; else the contract's error. */
function acceptApiKey(apiKey: ApiKey | null, credentials: PresentedCredentials): ApiKey {
  const { operation } = credentials;
  if (!apiKey || apiKey.revokedAt)
    throw Errors.unauthenticated(operation, 'the API key is unknown or revoked');
  if (!requestMatchesKey(apiKey.host, credentials)) {
    throw Errors.unauthenticated(
      operation,
      'the API key is not valid for the host of this request',
    );
  }
  return apiKey;
}

/** An API key that exists, is not revoked and was sent from its host; else the contract's error. */
export async function checkApiKey(
  deps: AppDeps,
  credentials: PresentedCredentials,
): Promise<ApiKey> {
  if (!credentials.apiKey) throw Errors.missingParameter(credentials.operation, 'apiKey');
  return acceptApiKey(await findApiKey(deps, credentials.apiKey), credentials);
}

/**
 * Who is asking: anonymous with a valid key, or the token's user. A token that is unknown,
 * expired or was issued for another key is refused (401), never silently ignored.
 */
export async function authenticateRequest(
  deps: AppDeps,
  credentials: PresentedCredentials,
): Promise<Requester> {
  const { operation } = credentials;
  if (!credentials.apiKey) throw Errors.missingParameter(operation, 'apiKey');
  const presentedToken =
    credentials.accessToken === undefined || credentials.accessToken === ''
      ? undefined
      : tokenFromParameter(credentials.accessToken);
  // Both lookups at once: the token is only believed once the key is accepted.
  const [storedKey, token] = await Promise.all([
    findApiKey(deps, credentials.apiKey),
    presentedToken === undefined
      ? null
      : deps.dataSource
          .getRepository(AccessToken)
          .findOneBy({ tokenHash: hashSecret(presentedToken) }),
  ]);
  const apiKey = acceptApiKey(storedKey, credentials);
  deps.keyUsage.touch(apiKey.id);
  if (presentedToken === undefined) return { kind: 'anonymous', apiKeyId: apiKey.id };
  if (!token) throw Errors.unauthenticated(operation, 'the access token is invalid');
  if (token.expiresAt.getTime() <= Date.now())
    throw Errors.unauthenticated(operation, 'the access token has expired');
  if (token.apiKeyId !== apiKey.id) {
    throw Errors.unauthenticated(operation, 'the access token was issued for another API key');
  }
  return { kind: 'user', apiKeyId: apiKey.id, userId: token.userId };
}

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

/** An API key that exists, is not revoked and was sent from its host; else the contract's error. */
export async function checkApiKey(
  deps: AppDeps,
  credentials: PresentedCredentials,
): Promise<ApiKey> {
  const { operation } = credentials;
  if (!credentials.apiKey) throw Errors.missingParameter(operation, 'apiKey');
  const apiKey = await deps.dataSource
    .getRepository(ApiKey)
    .findOneBy({ keyHash: hashSecret(credentials.apiKey) });
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

/**
 * Who is asking: anonymous with a valid key, or the token's user. A token that is unknown,
 * expired or was issued for another key is refused (401), never silently ignored.
 */
export async function authenticateRequest(
  deps: AppDeps,
  credentials: PresentedCredentials,
): Promise<Requester> {
  const apiKey = await checkApiKey(deps, credentials);
  deps.keyUsage.touch(apiKey.id);
  if (credentials.accessToken === undefined || credentials.accessToken === '') {
    return { kind: 'anonymous', apiKeyId: apiKey.id };
  }
  const token = await deps.dataSource
    .getRepository(AccessToken)
    .findOneBy({ tokenHash: hashSecret(tokenFromParameter(credentials.accessToken)) });
  const { operation } = credentials;
  if (!token) throw Errors.unauthenticated(operation, 'the access token is invalid');
  if (token.expiresAt.getTime() <= Date.now())
    throw Errors.unauthenticated(operation, 'the access token has expired');
  if (token.apiKeyId !== apiKey.id) {
    throw Errors.unauthenticated(operation, 'the access token was issued for another API key');
  }
  return { kind: 'user', apiKeyId: apiKey.id, userId: token.userId };
}

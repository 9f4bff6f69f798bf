import type { AppDeps, Requester } from '../../context/request-context';
import { findCredentials, isRequesterInForce, type StoredKey } from '../../db/sql/credentials.sql';
import { Errors } from '../../errors';
import { hashSecret } from '../../security/secrets';
import { tokenFromParameter } from './access-token.service';
import { requestMatchesKey, type RequestOrigin } from './host-binding';

export interface PresentedCredentials extends RequestOrigin {
  operation: string;
  apiKey?: string;
  accessToken?: string;
}

/** The key of a lookup: it exists, is not revoked and was sent from its host; else the contract's error. */
function acceptApiKey(apiKey: StoredKey | null, credentials: PresentedCredentials): StoredKey {
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

/** Who is asking, and until when: what a connection that outlives one request needs. */
export interface Authenticated {
  /**
   * Anonymous with a valid key, or the token's user. A token that is unknown, expired or was
   * issued for another key is refused (401), never silently ignored.
   */
  requester: Requester;
  /** When the access token expires (milliseconds since the epoch); null without a token. */
  tokenExpiresAt: number | null;
}

/**
 * Who is asking. `cached`: the key and token may come from the credentials cache (no older than
 * the last read of credential changes allows: credentials.cache.ts), for REST and GraphQL
 * requests; a connection that outlives its requests reads them from the database.
 */
export async function authenticateCredentials(
  deps: AppDeps,
  credentials: PresentedCredentials,
  options: { cached: boolean } = { cached: false },
): Promise<Authenticated> {
  const { operation } = credentials;
  if (!credentials.apiKey) throw Errors.missingParameter(operation, 'apiKey');
  const presentedToken =
    credentials.accessToken === undefined || credentials.accessToken === ''
      ? undefined
      : tokenFromParameter(credentials.accessToken);
  const keyHash = hashSecret(credentials.apiKey);
  const tokenHash = presentedToken === undefined ? null : hashSecret(presentedToken);
  const cache = options.cached ? deps.credentialsCache : undefined;
  if (cache) deps.credentialChanges?.ensureStarted();
  const cached = cache?.get(keyHash, tokenHash);
  const generation = cache?.generation ?? 0;
  const { key: storedKey, token } =
    cached ?? (await findCredentials(deps.db.writeRows, keyHash, tokenHash));
  const apiKey = acceptApiKey(storedKey, credentials);
  // Only a key in force is kept, with the token found beside it (or none presented).
  if (cache && !cached && (presentedToken === undefined || token)) {
    cache.set(keyHash, tokenHash, { key: apiKey, token }, generation);
  }
  deps.keyUsage.touch(apiKey.id);
  if (presentedToken === undefined) {
    return { requester: { kind: 'anonymous', apiKeyId: apiKey.id }, tokenExpiresAt: null };
  }
  if (!token) throw Errors.unauthenticated(operation, 'the access token is invalid');
  // Written so that an unreadable expiry (NaN) counts as expired.
  if (!(token.expiresAt > Date.now()))
    throw Errors.unauthenticated(operation, 'the access token has expired');
  if (token.apiKeyId !== apiKey.id) {
    throw Errors.unauthenticated(operation, 'the access token was issued for another API key');
  }
  return {
    requester: { kind: 'user', apiKeyId: apiKey.id, userId: token.userId },
    tokenExpiresAt: token.expiresAt,
  };
}

/**
 * Whether a requester authenticated earlier may still be served: its API key has not been
 * revoked since, and its user not erased (contract.md §14.4). A connection that outlives its
 * requests (a subscription) asks before each answer (requesterCheck), so a revocation stops it
 * at its next message, on every instance.
 */
export async function requesterStillAllowed(
  deps: AppDeps & { requester: Requester },
): Promise<boolean> {
  const { requester } = deps;
  if (requester.kind === 'operator') return true;
  return isRequesterInForce(
    deps.db.writeRows,
    requester.apiKeyId,
    requester.kind === 'user' ? requester.userId : null,
  );
}

/**
 * requesterStillAllowed for one subscription, asked before each of its messages: the database
 * is read again only when credentials changed somewhere since it last answered yes, or when the
 * instance's watch of changes has not confirmed that within the last second (credentials.cache.ts).
 * A revocation or an erasure still ends the subscription within a second, without a statement per
 * message and subscriber.
 */
export function requesterCheck(deps: AppDeps & { requester: Requester }): () => Promise<boolean> {
  const cache = deps.credentialsCache;
  let confirmed = 0;
  return async () => {
    if (cache?.unchangedSince(confirmed)) return true;
    deps.credentialChanges?.ensureStarted();
    const generation = cache?.generation ?? 0;
    const allowed = await requesterStillAllowed(deps);
    confirmed = allowed ? generation : 0;
    return allowed;
  };
}

import type { RequestContext } from '../../context/request-context';
import { apiKeyById, apiKeysOf, insertApiKey, saveRevokedApiKey } from '../../db/api-keys.store';
import type { ApiKey } from '../../db/entities';
import { userExists } from '../../db/users.store';
import { apiKeyManageDecision } from '../../domain/policy/access.policy';
import { Errors } from '../../errors';
import { hashSecret, newSecret } from '../../security/secrets';
import { normalizeKeyHost } from './host';

/** The stored key this service hands out (listApiKeys, createApiKey), for the pages that show it. */
export type { ApiKey };

export const API_KEY_PREFIX = 'qk_';

export interface CreatedApiKey {
  apiKey: ApiKey;
  /** The key itself: shown once, never stored. */
  secret: string;
}

export interface CreateApiKeyInput {
  host: string;
  /** Owner account; required unless an operator makes the key. */
  ownerId?: number | null;
  label?: string;
}

function mayManage(ctx: RequestContext, ownerId: number | null): boolean {
  return apiKeyManageDecision(ctx.requester, ownerId) === 'allowed';
}

export async function createApiKey(
  ctx: RequestContext,
  input: CreateApiKeyInput,
): Promise<CreatedApiKey> {
  const host = normalizeKeyHost(input.host);
  if (!host) {
    throw Errors.badParameter(
      ctx.operation,
      'host',
      input.host,
      'must be a domain name or an IP address',
    );
  }
  const ownerId = input.ownerId ?? null;
  if (!mayManage(ctx, ownerId))
    throw Errors.forbidden(ctx.operation, 'keys can only be created for yourself');
  if (ownerId !== null && !(await userExists(ctx.db, ownerId))) {
    throw Errors.notFound(ctx.operation, 'owner', ownerId, `user ${ownerId} does not exist`);
  }
  const label = (input.label ?? '').trim();
  if (label.length > 100)
    throw Errors.badParameter(ctx.operation, 'label', label, 'must be at most 100 characters');
  const secret = newSecret(API_KEY_PREFIX);
  const apiKey = await insertApiKey(ctx.db, {
    keyHash: hashSecret(secret),
    keyPrefix: secret.slice(0, API_KEY_PREFIX.length + 6),
    host,
    label,
    ownerId,
    revokedAt: null,
    lastUsedAt: null,
  });
  return { apiKey, secret };
}

/** The keys of an owner (or every key, for an operator who names no owner), newest first. */
export async function listApiKeys(ctx: RequestContext, ownerId?: number): Promise<ApiKey[]> {
  if (ownerId === undefined && ctx.requester.kind !== 'operator') {
    throw Errors.forbidden(ctx.operation, 'only an operator can list every key');
  }
  if (ownerId !== undefined && !mayManage(ctx, ownerId)) {
    throw Errors.forbidden(ctx.operation, 'keys of another user cannot be listed');
  }
  return apiKeysOf(ctx.db, ownerId);
}

/** Revokes a key: every later request with it is refused. Revoking twice is harmless. */
export async function revokeApiKey(ctx: RequestContext, id: number): Promise<ApiKey> {
  const apiKey = await apiKeyById(ctx.db, id);
  if (!apiKey || !mayManage(ctx, apiKey.ownerId)) {
    throw Errors.notFound(ctx.operation, 'keyId', id, `API key ${id} does not exist`);
  }
  if (!apiKey.revokedAt) {
    apiKey.revokedAt = new Date();
    await saveRevokedApiKey(ctx.db, apiKey);
  }
  // At once here (a lookup begun before the commit is not kept either); the other instances
  // within a second (credential-changes.watch.ts).
  ctx.credentialsCache?.clear();
  return apiKey;
}

import type { StoredKey, StoredToken } from '../db/sql/credentials.sql';

/** A lookup that found a key in force, with the token presented beside it (null if none). */
export interface CachedCredentials {
  key: StoredKey;
  token: StoredToken | null;
}

interface Entry extends CachedCredentials {
  expiresAt: number;
}

/**
 * Credentials this instance has looked up lately, by the hashes of the secrets presented. A hit
 * saves a round trip, but never decides alone: the request's rate-limit charge, which every
 * request pays in one exchange, also reads whether the key is still in force and the token still
 * there and unexpired, and refuses the request when not (rate-limit.service), before anything it
 * did is committed or answered. So a revocation takes effect on the next request of every
 * instance.
 */
export class CredentialsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  private static keyOf(keyHash: string, tokenHash: string | null): string {
    return `${keyHash}:${tokenHash ?? ''}`;
  }

  get(keyHash: string, tokenHash: string | null): CachedCredentials | undefined {
    const name = CredentialsCache.keyOf(keyHash, tokenHash);
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(name);
      return undefined;
    }
    return entry;
  }

  set(keyHash: string, tokenHash: string | null, credentials: CachedCredentials): void {
    // Oldest first out (a Map keeps insertion order): many distinct tokens cannot grow it.
    if (this.entries.size >= this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(CredentialsCache.keyOf(keyHash, tokenHash), {
      ...credentials,
      expiresAt: Date.now() + this.ttlMs,
    });
  }

  /** Drops every entry of a key (found revoked, or revoked by this instance). */
  forgetKey(apiKeyId: number): void {
    for (const [name, entry] of this.entries) {
      if (entry.key.id === apiKeyId) this.entries.delete(name);
    }
  }
}

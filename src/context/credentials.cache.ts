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
 * saves a round trip and is trusted only while the watch of credential changes
 * (credential-changes.watch.ts) has read, less than `trustMs` ago, that nothing changed: a key
 * revoked or a person erased anywhere is refused by every instance within a second (contract.md
 * §3), and a watch that cannot read leaves every lookup to the database. A token's expiry is
 * checked at each use from what was read.
 */
export class CredentialsCache {
  private readonly entries = new Map<string, Entry>();
  /** Hits are served until then (performance.now()): the start of the last read that found no change, plus trustMs. */
  private trustedUntil = 0;
  /** Counts the clears: a lookup that began before one is not kept (it may predate the change). */
  private clears = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  private static keyOf(keyHash: string, tokenHash: string | null): string {
    return `${keyHash}:${tokenHash ?? ''}`;
  }

  get(keyHash: string, tokenHash: string | null): CachedCredentials | undefined {
    if (performance.now() >= this.trustedUntil) return undefined;
    const now = Date.now();
    const name = CredentialsCache.keyOf(keyHash, tokenHash);
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(name);
      return undefined;
    }
    return entry;
  }

  /** To hand back to `set`: the state of the cache when a lookup began. */
  get generation(): number {
    return this.clears;
  }

  set(
    keyHash: string,
    tokenHash: string | null,
    credentials: CachedCredentials,
    generation: number,
  ): void {
    // Before the first read of changes (generation 0) nothing is kept: that read empties the cache.
    if (generation === 0 || generation !== this.clears) return;
    // Oldest first out (a Map keeps insertion order): many distinct tokens cannot grow it.
    if (this.entries.size >= this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(CredentialsCache.keyOf(keyHash, tokenHash), {
      ...credentials,
      expiresAt: Date.now() + this.ttlMs,
    });
  }

  /**
   * Whether nothing has changed since `generation` (taken before a read that found the
   * credentials in force), as far as a read of changes confirmed it less than a second ago.
   */
  unchangedSince(generation: number): boolean {
    return generation > 0 && generation === this.clears && performance.now() < this.trustedUntil;
  }

  /**
   * A read that started at `readAt` (performance.now(): a clock that never steps back) found no
   * change since the last: hits are good until then + trustMs.
   */
  confirmed(readAt: number, trustMs: number): void {
    this.trustedUntil = Math.max(this.trustedUntil, readAt + trustMs);
  }

  /** Credentials changed somewhere: nothing read before is served again. */
  clear(): void {
    this.clears += 1;
    this.entries.clear();
  }
}

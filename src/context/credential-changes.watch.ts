import type { Database } from '../db/database';
import { readCredentialChanges } from '../db/rate-limit-lease.store';
import type { Logger } from '../observability/logger';
import type { CredentialsCache } from './credentials.cache';

/** Time between two reads of the count of credential changes. */
export const CREDENTIAL_CHANGES_INTERVAL_MS = 250;
/**
 * How long after the start of a read that found no change the cache is trusted: a change
 * committed before that start is seen by it, so a revocation is refused everywhere within this
 * bound plus one read (contract.md §3: 1 second).
 */
export const CREDENTIAL_TRUST_MS = 750;

/** How often a failing read is logged: once per this many failures in a row. */
const FAILURES_PER_LOG = 100;

/**
 * Keeps an instance's credentials cache true to the database: one statement per interval reads
 * the count of credential changes (a key revoked, a person erased: the transactions that make
 * them count one more), and a new count empties the cache. Started by the first lookup, so a
 * command-line run never polls.
 */
export class CredentialChangesWatch {
  private known: number | undefined;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly cache: CredentialsCache,
    private readonly logger: Logger,
    private readonly intervalMs = CREDENTIAL_CHANGES_INTERVAL_MS,
  ) {}

  /** Starts reading, once. */
  ensureStarted(): void {
    if (this.closed || this.timer || this.known !== undefined || this.failures > 0) return;
    this.schedule(0);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void this.read(), delayMs);
    this.timer.unref();
  }

  private async read(): Promise<void> {
    const startedAt = performance.now();
    try {
      const count = await readCredentialChanges(this.db);
      // The first read also clears: what was looked up before it was never confirmed.
      if (count !== this.known) this.cache.clear();
      this.known = count;
      this.failures = 0;
      this.cache.confirmed(startedAt, CREDENTIAL_TRUST_MS);
    } catch (error) {
      // Untrusted meanwhile: lookups go to the database until a read succeeds.
      if (this.failures % FAILURES_PER_LOG === 0) {
        this.logger.warn({ err: error, failures: this.failures + 1 }, 'credential changes unread');
      }
      this.failures += 1;
    }
    this.schedule(this.intervalMs);
  }
}

import type { SliceGrant, SliceRequest } from '../db/rate-limit-lease.store';

/** An API key's budget after a request was charged (contract.md §11). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the budget is whole again. */
  resetSeconds: number;
}

/** Where slices come from and go back to: the database every instance shares. */
export interface SliceStore {
  take(request: SliceRequest): Promise<SliceGrant>;
  giveBack(key: string, points: number, expire: number): Promise<void>;
}

/** The slice this instance holds of one key's window. */
interface Lease {
  /** End of the window the slice belongs to. */
  expire: number;
  /** Points of the slice not spent yet. */
  unspent: number;
  /** Points of the window leased by every instance at the last take or give-back here. */
  leased: number;
  /** Points the next take asks for: doubled when a slice lasts under a second, halved over 4. */
  want: number;
  /** Takes so far; the first knows no pace yet. */
  takes: number;
  takenAt: number;
  lastUsed: number;
  /** A refusal is kept this long without asking the database again… */
  refusedUntil: number;
  /** …for requests missing at least this many points (a smaller one may still be granted). */
  refusedShortfall: number;
  taking?: Promise<void>;
}

/** The first slice asked for a key, before its pace is known. */
const FIRST_WANT = 8;
/** A key unused this long on this instance gives its unspent points back to the others. */
export const IDLE_GIVE_BACK_MS = 1000;
/** How long a refusal is answered from memory before the database is asked again. */
const REFUSAL_MEMORY_MS = 1000;

/**
 * The per-key budgets of contract.md §11, shared by every instance through the database without
 * a write per request: an instance leases a slice of a key's window in one statement, spends it
 * in memory, and gives back what it did not spend once the key idles here (or at shutdown). The
 * database grants a slice only from points no instance holds, so a key never spends more than
 * its budget however many instances serve it; slices are small when little is left, so the
 * points others hold make a refusal come early by little.
 *
 * rate-limiter-flexible counts each request in its store; none of its stores hands out part of a
 * shared budget, which is the point here, so the lease is written here.
 */
export class ApiKeyRateLimits {
  private readonly leases = new Map<string, Lease>();

  constructor(
    private readonly store: SliceStore,
    readonly limit: number,
    private readonly windowSeconds: number,
    private readonly onTake: () => void = () => undefined,
  ) {}

  /** Spends `points` of the key's budget; `exceeded` when the request goes over it. */
  async consume(apiKeyId: number, points: number): Promise<RateLimitState & { exceeded: boolean }> {
    const key = `key:${apiKeyId}`;
    for (;;) {
      const now = Date.now();
      let lease = this.leases.get(key);
      if (lease && lease.expire <= now) {
        if (lease.taking) {
          await lease.taking;
          continue;
        }
        // The window ended: its slice went with it.
        this.leases.delete(key);
        lease = undefined;
      }
      if (lease && lease.unspent >= points) {
        lease.unspent -= points;
        lease.lastUsed = now;
        return this.state(lease, now, false);
      }
      if (lease && lease.refusedUntil > now && points - lease.unspent >= lease.refusedShortfall) {
        return this.state(lease, now, true);
      }
      if (lease?.taking) {
        await lease.taking;
        continue;
      }
      const current = lease ?? this.newLease(key, now);
      const shortfall = points - current.unspent;
      const taking = this.take(key, current, shortfall, now);
      current.taking = taking;
      try {
        await taking;
      } catch (error) {
        // A lease that never got a window is not kept (the next request starts afresh).
        if (!Number.isFinite(current.expire) && this.leases.get(key) === current) {
          this.leases.delete(key);
        }
        throw error;
      } finally {
        current.taking = undefined;
      }
      if (current.refusedUntil > Date.now() && points - current.unspent >= shortfall) {
        return this.state(current, Date.now(), true);
      }
    }
  }

  private newLease(key: string, now: number): Lease {
    const lease: Lease = {
      expire: Number.POSITIVE_INFINITY,
      unspent: 0,
      leased: 0,
      want: FIRST_WANT,
      takes: 0,
      takenAt: now,
      lastUsed: now,
      refusedUntil: 0,
      refusedShortfall: 0,
    };
    this.leases.set(key, lease);
    return lease;
  }

  private async take(key: string, lease: Lease, shortfall: number, now: number): Promise<void> {
    // The pace of the key here: a slice spent within a second asks twice as much next time.
    const lasted = now - lease.takenAt;
    if (lease.takes > 0) {
      lease.want = lasted < 1000 ? lease.want * 2 : lasted > 4000 ? lease.want / 2 : lease.want;
      lease.want = Math.max(FIRST_WANT, Math.min(this.limit, Math.round(lease.want)));
    }
    lease.takes += 1;
    this.onTake();
    const grant = await this.store.take({
      key,
      need: shortfall,
      want: Math.max(shortfall, lease.want),
      limit: this.limit,
      windowMs: this.windowSeconds * 1000,
    });
    const after = Date.now();
    // A new window voids what was held of the previous one.
    if (grant.expire !== lease.expire) lease.unspent = 0;
    lease.expire = grant.expire;
    lease.leased = grant.leased;
    lease.takenAt = after;
    if (grant.granted > 0) {
      lease.unspent += grant.granted;
      lease.refusedUntil = 0;
    } else {
      lease.refusedUntil = Math.min(grant.expire, after + REFUSAL_MEMORY_MS);
      lease.refusedShortfall = shortfall;
    }
  }

  private state(
    lease: Lease,
    now: number,
    exceeded: boolean,
  ): RateLimitState & { exceeded: boolean } {
    // What this instance may still spend: the budget less what every instance leased, plus
    // what this one holds. Exact with one instance; others' unspent slices count as spent.
    const remaining = Math.max(0, this.limit - lease.leased + lease.unspent);
    const ms = Number.isFinite(lease.expire) ? lease.expire - now : this.windowSeconds * 1000;
    return {
      limit: this.limit,
      remaining: exceeded ? 0 : remaining,
      resetSeconds: Math.max(1, Math.ceil(ms / 1000)),
      exceeded,
    };
  }

  /**
   * Gives back the unspent points of keys idle here for `idleMs` (all of them with 0, at
   * shutdown), and forgets ended windows. Points whose give-back failed count as spent until
   * their window ends: never more than the budget.
   */
  async giveBackIdle(idleMs = IDLE_GIVE_BACK_MS): Promise<number> {
    const now = Date.now();
    let given = 0;
    for (const [key, lease] of [...this.leases]) {
      if (lease.expire <= now) {
        if (!lease.taking && this.leases.get(key) === lease) this.leases.delete(key);
        continue;
      }
      if (lease.taking || lease.unspent === 0 || now - lease.lastUsed < idleMs) continue;
      const points = lease.unspent;
      lease.unspent = 0;
      lease.leased -= points;
      await this.store.giveBack(key, points, lease.expire);
      given += points;
    }
    return given;
  }
}

/**
 * Computations shared by the subscribers of one instance (contract.md §10): subscribers of the
 * same session with the same parameters and scope ask for a value reflecting at least version
 * `v` of the session; one computation taken at a version ≥ v serves them all, in flight or done.
 * So thirty teachers' screens on one class cost one results query per change, not thirty.
 */

interface Entry<T> {
  version: number;
  value: Promise<T>;
  at: number;
}

export class SharedComputations<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    /** Entries kept at most: the oldest go first. */
    private readonly maxEntries = 1_000,
    /** How long an entry serves: the sessions watched now keep theirs fresh. */
    private readonly ttlMs = 10_000,
  ) {}

  /** A value taken at a version ≥ `version` under `key`, computed now only if none is. */
  get(key: string, version: number, compute: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && entry.version >= version && now - entry.at < this.ttlMs) return entry.value;
    const created: Entry<T> = { version, value: compute(), at: now };
    // Moved to the end: the Map's order is the order of use.
    this.entries.delete(key);
    this.entries.set(key, created);
    // A failure is each caller's own: the next one computes again.
    created.value.catch(() => {
      if (this.entries.get(key) === created) this.entries.delete(key);
    });
    while (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
    return created.value;
  }

  get size(): number {
    return this.entries.size;
  }
}

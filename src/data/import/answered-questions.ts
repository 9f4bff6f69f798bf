/**
 * Which questions each attempt (session, user, quiz) has answered: one bit per question in one
 * shared byte pool, so a million answers cost a few hundred kB instead of a Set of a million keys.
 */
export class AnsweredQuestions {
  private readonly offsets = new Map<number, number>();
  private pool = new Uint8Array(1 << 12);
  private used = 0;

  /** Marks the question as answered; false when it already was. */
  mark(attempt: number, position: number, nbQuestions: number): boolean {
    let offset = this.offsets.get(attempt);
    if (offset === undefined) {
      offset = this.allocate(Math.ceil(nbQuestions / 8));
      this.offsets.set(attempt, offset);
    }
    const byte = offset + (position >> 3);
    const bit = 1 << (position & 7);
    if ((this.pool[byte] ?? 0) & bit) return false;
    this.pool[byte] = (this.pool[byte] ?? 0) | bit;
    return true;
  }

  private allocate(size: number): number {
    if (this.used + size > this.pool.length) {
      const grown = new Uint8Array(Math.max(this.pool.length * 2, this.used + size));
      grown.set(this.pool);
      this.pool = grown;
    }
    const offset = this.used;
    this.used += size;
    return offset;
  }
}

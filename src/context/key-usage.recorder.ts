import type { DataSource } from 'typeorm';
import { ApiKey } from '../db/entities';

/**
 * Remembers when each API key was last used and writes it in batches, so that a request costs
 * no database write. At most one UPDATE per key per flush.
 */
export class KeyUsageRecorder {
  private pending = new Map<number, Date>();

  touch(apiKeyId: number, at: Date = new Date()): void {
    this.pending.set(apiKeyId, at);
  }

  get size(): number {
    return this.pending.size;
  }

  async flush(dataSource: DataSource): Promise<number> {
    if (this.pending.size === 0 || !dataSource.isInitialized) return 0;
    const batch = this.pending;
    this.pending = new Map();
    const keys = dataSource.getRepository(ApiKey);
    for (const [id, at] of batch) await keys.update({ id }, { lastUsedAt: at });
    return batch.size;
  }
}

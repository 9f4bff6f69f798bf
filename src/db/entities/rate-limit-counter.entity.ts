import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The points of an API key's rate-limit window that instances have leased (contract.md §11),
 * shared by every instance (rate-limit-lease.store.ts); and one row without a window, the count
 * of credential changes the instances watch.
 */
@Entity('rate_limits')
export class RateLimitCounter {
  /** `key:<API key id>`, or `credentials:changes`. */
  @PrimaryColumn({ type: 'varchar', length: 255 })
  key!: string;

  @Column({ type: 'int', default: 0 })
  points!: number;

  /** End of the window, in milliseconds since the epoch; NULL for the count of changes. */
  @Column({ type: 'bigint', nullable: true })
  expire!: string | null;
}

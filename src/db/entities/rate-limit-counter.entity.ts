import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The points an API key has used in the current rate-limit window (contract.md §11), shared by
 * every instance. The table's shape is the one rate-limiter-flexible's SQL stores read and write
 * (columns in this order); the service never reads it otherwise.
 */
@Entity('rate_limits')
export class RateLimitCounter {
  /** `<prefix>:<API key id>`. */
  @PrimaryColumn({ type: 'varchar', length: 255 })
  key!: string;

  @Column({ type: 'int', default: 0 })
  points!: number;

  /** End of the window, in milliseconds since the epoch. */
  @Column({ type: 'bigint', nullable: true })
  expire!: string | null;
}

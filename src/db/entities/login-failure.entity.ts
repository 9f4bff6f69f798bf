import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { datetime } from './column-types';

/**
 * A failed login, counted per account and per client IP to rate-limit guessing. Kept in the
 * database so that every instance of the service sees the same counts; purged after the window.
 */
@Entity('login_failures')
@Index('ix_login_failures_account', ['accountHash', 'failedAt'])
@Index('ix_login_failures_ip', ['clientIp', 'failedAt'])
export class LoginFailure {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  /** SHA-256 of the normalised email tried: counts per account without keeping the address. */
  @Column({ type: 'varchar', length: 64 })
  accountHash!: string;

  @Column({ type: 'varchar', length: 45 })
  clientIp!: string;

  @Column(datetime())
  failedAt!: Date;
}

import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { datetime } from './column-types';
import { User } from './user.entity';

@Entity('api_keys')
export class ApiKey {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  /** SHA-256 (hex) of the key; the key itself is shown once and never stored. Unique: every request looks it up. */
  @Index('uq_api_keys_key_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  keyHash!: string;

  /** First characters of the key, so owners can tell their keys apart in lists. */
  @Column({ type: 'varchar', length: 16 })
  keyPrefix!: string;

  /** The one host (domain name or IP address) the key is bound to. */
  @Column({ type: 'varchar', length: 253 })
  host!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  label!: string;

  /** Null for keys an operator made without naming an owner. Indexed: the key manager lists by owner. */
  @Index('ix_api_keys_owner')
  @Column({ type: 'int', nullable: true })
  ownerId!: number | null;

  @ManyToOne(() => User, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id' })
  owner?: Relation<User> | null;

  @Column(datetime({ nullable: true }))
  revokedAt!: Date | null;

  @CreateDateColumn(datetime())
  createdAt!: Date;

  /** Written in batches by the usage recorder, not on every request. */
  @Column(datetime({ nullable: true }))
  lastUsedAt!: Date | null;
}

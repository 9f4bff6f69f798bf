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

/** A browser session of the key manager: the cookie holds a random id, stored here only as its hash. */
@Entity('web_sessions')
export class WebSession {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  /** Unique: every key-manager request looks its session up by the cookie's hash. */
  @Index('uq_web_sessions_token_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenHash!: string;

  @Index('ix_web_sessions_user')
  @Column({ type: 'int' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  /** Indexed for the purge of expired sessions. */
  @Index('ix_web_sessions_expires_at')
  @Column(datetime())
  expiresAt!: Date;

  @CreateDateColumn(datetime())
  createdAt!: Date;
}

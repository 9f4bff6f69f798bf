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
import { ApiKey } from './api-key.entity';
import { User } from './user.entity';

@Entity('access_tokens')
export class AccessToken {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  /** SHA-256 (hex) of the token; unique because every authenticated request looks it up. */
  @Index('uq_access_tokens_token_hash', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenHash!: string;

  @Index('ix_access_tokens_user')
  @Column({ type: 'int' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  /** The key the token was issued for; a token used with another key is refused. */
  @Index('ix_access_tokens_api_key')
  @Column({ type: 'int' })
  apiKeyId!: number;

  @ManyToOne(() => ApiKey, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'api_key_id' })
  apiKey?: Relation<ApiKey>;

  /** Indexed for the purge of expired tokens. */
  @Index('ix_access_tokens_expires_at')
  @Column(datetime())
  expiresAt!: Date;

  @CreateDateColumn(datetime())
  createdAt!: Date;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bool, datetime } from './column-types';

@Entity('users')
export class User {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  /** Login identifier; unique so the login page and imports find one account by it. */
  @Index('uq_users_email', { unique: true })
  @Column({ type: 'varchar', length: 254 })
  email!: string;

  /** argon2id hash; null for accounts that cannot log in (generated pupils). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  passwordHash!: string | null;

  @Column({ type: 'varchar', length: 100 })
  firstName!: string;

  @Column({ type: 'varchar', length: 100 })
  lastName!: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  pictureUrl!: string | null;

  @Column(bool({ default: false }))
  publicProfile!: boolean;

  @Column(bool({ default: false }))
  canCreatePrivateQuizzes!: boolean;

  @CreateDateColumn(datetime())
  createdAt!: Date;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bool, datetime } from './column-types';

@Entity('users')
export class User {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  /** Login identifier (null once erased); unique so the login page and imports find one account by it. */
  @Index('uq_users_email', { unique: true })
  @Column({ type: 'varchar', length: 254, nullable: true })
  email!: string | null;

  /** argon2id hash; null for accounts that cannot log in (generated pupils). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  passwordHash!: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  firstName!: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  lastName!: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  pictureUrl!: string | null;

  @Column(bool({ default: false }))
  publicProfile!: boolean;

  @Column(bool({ default: false }))
  canCreatePrivateQuizzes!: boolean;

  @CreateDateColumn(datetime())
  createdAt!: Date;

  /**
   * Set when the person was erased (contract.md §14.4): the row stays as a tombstone, its
   * email, names, picture and password null, so the id is never reused and shows no one.
   */
  @Column(datetime({ nullable: true }))
  erasedAt!: Date | null;
}

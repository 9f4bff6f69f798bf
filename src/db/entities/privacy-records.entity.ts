import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { datetime } from './column-types';

/**
 * The access log (contract.md §14.6): one row per pupil concerned by a read of detailed or
 * per-pupil data. The rows of one read share its request id and operation; they are written by
 * the database from the set the read made (INSERT … SELECT), never listed by the process.
 * No foreign keys: an entry outlives neither its retention nor an erasure, and its insert stays
 * one statement without lookups.
 */
@Entity('access_log')
@Index('ix_access_log_subject', ['subjectUserId', 'accessedAt'])
@Index('ix_access_log_accessed_at', ['accessedAt'])
export class AccessLogEntry {
  // int, not bigint: SQLite numbers rows only through an INTEGER key. Retention keeps the table
  // far below 2^31 rows (ACCESS_LOG_RETENTION_DAYS).
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column(datetime())
  accessedAt!: Date;

  /** The user whose token made the request; null for an application's bare key. */
  @Column({ type: 'int', nullable: true })
  requesterUserId!: number | null;

  @Column({ type: 'int', nullable: true })
  requesterApiKeyId!: number | null;

  /** The catalog name of the operation (getResults, exportDataSet, user:erase…). */
  @Column({ type: 'varchar', length: 64 })
  operation!: string;

  @Column({ type: 'varchar', length: 64 })
  requestId!: string;

  /** The pupil the read concerned. */
  @Column({ type: 'int' })
  subjectUserId!: number;
}

/**
 * The record of an erasure (contract.md §14.4): who ran it, when, and a hash of the erased id,
 * by which `cli access-log --user <id>` still finds it; nothing else about the person.
 */
@Entity('erasures')
@Index('ix_erasures_subject_hash', ['subjectHash'])
export class Erasure {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  /** SHA-256 of `user:<id>`. */
  @Column({ type: 'varchar', length: 64 })
  subjectHash!: string;

  @Column(datetime())
  erasedAt!: Date;

  /** The operator who ran it, as the command line was told (--by) or the system account. */
  @Column({ type: 'varchar', length: 100 })
  erasedBy!: string;
}

import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { DataSetItemType } from '../../domain/data-sets/item-types';
import { datetime } from './column-types';

/**
 * A set computed once by the operation that made it and kept for paging (contract.md §5).
 * Its members live in data_set_items (computed results in computed_results, item statistics in
 * question_statistics and quiz_statistics), written by
 * INSERT … SELECT, never through the process.
 */
@Entity('data_sets')
export class DataSet {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ type: 'varchar', length: 20 })
  itemType!: DataSetItemType;

  /** The maker: an authenticated user, or for an anonymous request the API key. */
  @Index('ix_data_sets_owner_user')
  @Column({ type: 'int', nullable: true })
  ownerUserId!: number | null;

  @Index('ix_data_sets_owner_api_key')
  @Column({ type: 'int', nullable: true })
  ownerApiKeyId!: number | null;

  @Column({ type: 'int' })
  totalNumberOfItems!: number;

  @Column({ type: 'int' })
  numberOfItemsPerPage!: number;

  /** For computed results: the request that made the set (result types, functions, grouping), as JSON. */
  @Column({ type: 'text', nullable: true })
  parameters!: string | null;

  @CreateDateColumn(datetime())
  createdAt!: Date;

  /** Indexed for the cleanup job. */
  @Index('ix_data_sets_expires_at')
  @Column(datetime())
  expiresAt!: Date;
}

/**
 * One member of a user, quiz or group set at its 1-based position, so a page is a range of the
 * primary key.
 */
@Entity('data_set_items')
/** computeDataSet joins two sets on their members. */
@Index('ix_data_set_items_set_item', ['dataSetId', 'itemId'])
export class DataSetItem {
  @PrimaryColumn({ type: 'int' })
  dataSetId!: number;

  @PrimaryColumn({ type: 'int' })
  position!: number;

  @Column({ type: 'int', nullable: true })
  itemId!: number | null;
}

/**
 * One computed result of a computedResult set at its 1-based position (contract.md §7).
 * A table of its own: the statement that writes results reads the user and quiz sets from
 * data_set_items, and writing to another table spares the database a temporary copy of every
 * result row and the upkeep of a secondary index (about half the time of a 10,000-row set).
 */
@Entity('computed_results')
export class ComputedResultItem {
  @PrimaryColumn({ type: 'int' })
  dataSetId!: number;

  @PrimaryColumn({ type: 'int' })
  position!: number;

  @Column({ type: 'int', nullable: true })
  userId!: number | null;

  @Column({ type: 'int', nullable: true })
  quizId!: number | null;

  @Column({ type: 'int', nullable: true })
  sessionId!: number | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  aggregationFunction!: string | null;

  @Column({ type: 'double', nullable: true })
  nbGoodAnswers!: number | null;

  @Column({ type: 'double', nullable: true })
  goodAnswersPercent!: number | null;

  @Column({ type: 'double', nullable: true })
  percentile!: number | null;

  @Column({ type: 'double', nullable: true })
  nbAnswers!: number | null;

  @Column({ type: 'double', nullable: true })
  duration!: number | null;
}

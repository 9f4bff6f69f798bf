import type { DataSetItemType } from '../../domain/data-sets/item-types';
import type { SqlStatement, SqlVariable } from '../../db/sql/statement-batches';
import type { RawParam } from './data-set.params';

/** One page of a set, as the domain knows it; the views turn ids into items. */
export interface DataSetPage {
  dataSetId: number;
  itemType: DataSetItemType;
  /** 0 for an empty set. */
  numberOfPages: number;
  numberOfItemsPerPage: number;
  totalNumberOfItems: number;
  /** 1-based; 1 for an empty set. */
  currentPageIndex: number;
  /** Members of the page in position order (sets of ids: user, quiz, userGroup; [] otherwise). */
  itemIds: number[];
  /** The page's rows in position order (sets of rows: computed results; [] otherwise). */
  resultRows: ResultRow[];
  /** What made the set (data_sets.parameters), for views of computed results. */
  parameters: string | null;
}

/** A row of a members table as the page statement reads it. */
export type ResultRow = Record<string, unknown>;

export interface DataSetOptions {
  /** 1 to 1000; the configured page size when absent. */
  numberOfItemsPerPage?: RawParam;
  /** What made the set, as JSON (computed results record their request here). */
  parameters?: string | null;
  /**
   * The access-log entry of the read (contract.md §14.6), written in the set's own transaction
   * (and exchange, on MySQL) once its members are: given the set's id, an INSERT … SELECT.
   */
  accessLog?: AccessLogStatement;
}

/**
 * The id of a set being written, as a statement parameter: the number on SQLite, the session
 * variable that holds it on MySQL/MariaDB (the id is only known once the batch runs).
 */
export type DataSetId = number | SqlVariable;

/**
 * The INSERT … SELECT that writes the members of a new set, given its id, at positions 1..n
 * into its kind's members table. One that reads data_set_items while writing it must read it
 * from a materialized derived table (see idMembers) to run on MySQL 8.
 */
export type MembersStatement = (dataSetId: DataSetId) => SqlStatement;

/** The INSERT … SELECT of a read's access-log entry, given the id of the set it wrote. */
export type AccessLogStatement = (dataSetId: DataSetId) => SqlStatement;

/** A set id to check, and the parameter that named it (for the error). */
export interface DataSetReference {
  id: number;
  parameterName: string;
}

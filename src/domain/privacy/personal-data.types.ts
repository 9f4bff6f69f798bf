/** The vocabulary of the registry of personal data (personal-data.registry.ts). */

/** What a column holds about a person. */
export type PersonalCategory =
  /** The id of a person (a user): it names them wherever it is read with the users table. */
  | 'person'
  | 'name'
  | 'email'
  | 'picture'
  /** A one-way hash of a password, a token, a key or an email: no secret is stored. */
  | 'hash'
  /** An answer given by a pupil (free text included). */
  | 'answer'
  /** A score or result computed from a person's answers. */
  | 'result'
  /** Text a person typed that may name someone ("Monday math, class 5A"). */
  | 'free-text'
  | 'ip-address'
  /** When a person did something (answered, signed in, failed to). */
  | 'time';

/** What erasing a person (cli user:erase, §14.4) does to a table's rows about them. */
export type ErasureRule =
  /** Their rows are deleted. */
  | 'delete'
  /** The row stays, every personal column emptied: the id is never reused and names no one. */
  | 'tombstone'
  /** Rows other people use stay, still owned by the tombstone of the person. */
  | 'keep-for-others'
  /** Sets holding the person, or computed from one that does, expire at once. */
  | 'expire'
  /** The table holds nothing about a person. */
  | 'none';

export interface ColumnEntry {
  /** What the column holds about a person; null: nothing. */
  category: PersonalCategory | null;
  /** Why, where a column's name or content could suggest otherwise. */
  note?: string;
  /**
   * After an erasure the column may still hold the erased id, which then names no one (the
   * tombstone's): rows other people use, and the record of what the person read about others.
   */
  keepsTombstoneId?: true;
}

/**
 * The rows an erasure deletes: those whose `column` holds the person's id, or (`accountHashes`)
 * one of the hashes login and join failures are counted under.
 */
export interface ErasedRows {
  column: string;
  matches: 'userId' | 'accountHashes';
}

export interface TableEntry {
  table: string;
  /** What a row is, in words a data protection officer reads. */
  holds: string;
  /** Whose data a row is; null for a table without personal data. */
  subject: string | null;
  /** Every column of the table. */
  columns: Readonly<Record<string, ColumnEntry>>;
  /** How long a row is kept. */
  retention: string;
  /** What a person's export (§14.3) gives of the table. */
  export: string;
  erasure: ErasureRule;
  /** For erasure 'delete': which rows are the person's. */
  erasedRows?: ErasedRows;
  /** Why the table may be absent from a database (it is made only where it is needed). */
  mayBeAbsent?: string;
}

/**
 * The data file format of `import` and `generate` (see the import-format spec). Objects refer to
 * each other by `ref`, a string chosen by the file's writer; the service assigns its own ids.
 * These types describe a well-formed file; the validator checks every value at run time, so a
 * value typed here may still be refused.
 */

export interface ImportUser {
  ref: string;
  email: string;
  /** Plain password, hashed on import; absent or null: the account cannot log in. */
  password?: string | null;
  /**
   * An argon2 hash (PHC string) used as is, instead of `password`. Lets `generate` give many
   * accounts one password without hashing it once per account.
   */
  passwordHash?: string | null;
  firstName: string;
  lastName: string;
  pictureURL?: string | null;
  publicProfile?: boolean;
  canCreatePrivateQuizzes?: boolean;
}

export interface ImportGroup {
  ref: string;
  name: string;
  /** A user ref. */
  owner: string;
  /** User refs. */
  members?: string[];
}

export interface ImportMedia {
  type: 'video' | 'youtube' | 'image' | 'sound' | 'document';
  url: string;
}

export interface ImportQuestion {
  title: string;
  /** A question type or one of its accepted aliases. */
  type: string;
  media?: ImportMedia | null;
  propositions?: string[] | null;
  /** Index, array of indexes, boolean, text, or number (a string with `.` or `,` is accepted). */
  goodAnswer?: unknown;
  tolerance?: number | null;
  caseSensitive?: boolean | null;
}

export interface ImportQuiz {
  ref: string;
  /** A user ref. */
  author: string;
  title: string;
  visibility: 'public' | 'private' | 'draft';
  survey: boolean;
  tags: string[];
  /** `H:M:S`, `M:S` or `S`. */
  defaultDuration?: string | null;
  /** `YYYY-MM-DD hh:mm:ss` UTC; defaults to the import time. */
  creationDate?: string | null;
  lastChangeDate?: string | null;
  questions?: ImportQuestion[];
}

export interface ImportAttendee {
  /** A user ref. */
  user: string;
  raisedHand?: boolean;
}

export interface ImportSession {
  ref: string;
  /** A user ref. */
  owner: string;
  title: string;
  /** `YYYY-MM-DD hh:mm:ss` UTC. */
  startDate: string;
  /** Refs of the quizzes played in the session. */
  quizzes?: string[];
  attendees?: ImportAttendee[];
}

export interface ImportAnswer {
  session: string;
  user: string;
  quiz: string;
  /** 0-based position of the question in its quiz. */
  question: number;
  /** Of the type of the question's goodAnswer. */
  answer: unknown;
  /** `YYYY-MM-DD hh:mm:ss` UTC. */
  answeredAt: string;
}

export interface ImportFlag {
  user: string;
  quiz: string;
  favorite?: boolean;
  imported?: boolean;
}

/** A whole data file, as parsed from JSON. */
export interface ImportDocument {
  users?: ImportUser[];
  groups?: ImportGroup[];
  quizzes?: ImportQuiz[];
  sessions?: ImportSession[];
  answers?: ImportAnswer[];
  flags?: ImportFlag[];
}

/**
 * Records read one at a time, so a generator can stream a million answers without holding them.
 * `length`, when present (arrays have it), is only used as the total of progress reports.
 */
export type Records<T> = Iterable<T> & { readonly length?: number };

/** The shape of a document where every array may be any iterable; loaded in the order below. */
export interface ImportSource {
  users?: Records<ImportUser>;
  quizzes?: Records<ImportQuiz>;
  groups?: Records<ImportGroup>;
  sessions?: Records<ImportSession>;
  answers?: Records<ImportAnswer>;
  flags?: Records<ImportFlag>;
}

export const IMPORT_SECTIONS = [
  'users',
  'quizzes',
  'groups',
  'sessions',
  'answers',
  'flags',
] as const;
export type ImportSection = (typeof IMPORT_SECTIONS)[number];

/** What each ref of a file became: database ids, as strings (the wire format of ids). */
export interface IdMap {
  users: Record<string, string>;
  quizzes: Record<string, string>;
  sessions: Record<string, string>;
  groups: Record<string, string>;
}

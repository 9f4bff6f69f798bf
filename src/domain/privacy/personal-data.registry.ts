/**
 * The registry of personal data (contract.md §14.2): every table of the database, each column
 * that holds personal data or names a person, whose data it is, how long it is kept, and what a
 * person's export and erasure do with it. test/integration/privacy-registry.test.ts holds it to
 * the migrated schema of both databases, so a column cannot be added without being declared here.
 */

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
  /** Why the table may be absent from a database (it is made only where it is needed). */
  mayBeAbsent?: string;
}

const none: ColumnEntry = { category: null };
const person: ColumnEntry = { category: 'person' };
const as = (category: PersonalCategory, note?: string): ColumnEntry =>
  note === undefined ? { category } : { category, note };
const plain = (note: string): ColumnEntry => ({ category: null, note });

const WHILE_USED = 'as long as the database keeps it: no retention period applies';
const NOT_PERSONAL = 'nothing: no personal data';
const ANSWER_RETENTION =
  "ANSWER_RETENTION_DAYS after the session's start (default 730; 0 keeps it for ever), then purged by the maintenance job";

export const PERSONAL_DATA_REGISTRY: readonly TableEntry[] = [
  {
    table: 'users',
    holds: 'an account: a pupil, a teacher or another user of the classroom app',
    subject: 'the user',
    columns: {
      id: person,
      email: as('email'),
      password_hash: as('hash', 'an argon2id hash of the password; never exported'),
      first_name: as('name'),
      last_name: as('name'),
      picture_url: as('picture'),
      public_profile: none,
      can_create_private_quizzes: none,
      created_at: as('time'),
    },
    retention: 'as long as the account exists',
    export: 'the profile, without the password hash',
    erasure: 'tombstone',
  },
  {
    table: 'answers',
    holds: "one pupil's answer to one question in one session",
    subject: 'the pupil who answered',
    columns: {
      id: none,
      session_id: none,
      user_id: person,
      quiz_id: none,
      question_id: none,
      value: as('answer'),
      good: as('result'),
      answered_at: as('time'),
    },
    retention: ANSWER_RETENTION,
    export: 'every answer with its value, score and time',
    erasure: 'delete',
  },
  {
    table: 'session_attendees',
    holds: 'who attended a session, and whether their hand is raised',
    subject: 'the attendee',
    columns: { session_id: none, user_id: person, raised_hand: none },
    retention: `${ANSWER_RETENTION}, once the session has no answer left`,
    export: 'every attendance',
    erasure: 'delete',
  },
  {
    table: 'sessions',
    holds: 'a class session, owned by a teacher',
    subject: 'the owner',
    columns: {
      id: none,
      owner_id: person,
      title: as('free-text', 'typed by the teacher; may name a class or a pupil'),
      start_date: none,
      client_ref: plain("the classroom app's own reference, an opaque identifier"),
      join_code: plain('a random code shown to the owner; names no one'),
      join_code_expires_at: none,
    },
    retention: WHILE_USED,
    export: 'the sessions the person owns',
    erasure: 'keep-for-others',
  },
  {
    table: 'session_quizzes',
    holds: 'which quizzes a session plays',
    subject: null,
    columns: { session_id: none, quiz_id: none },
    retention: WHILE_USED,
    export: NOT_PERSONAL,
    erasure: 'none',
  },
  {
    table: 'session_changes',
    holds: 'the version of each session that live results watch',
    subject: null,
    columns: { session_id: none, version: none, changed_at: none },
    retention: WHILE_USED,
    export: NOT_PERSONAL,
    erasure: 'none',
  },
  {
    table: 'quizzes',
    holds: 'a quiz, written by an author',
    subject: 'the author',
    columns: {
      id: none,
      author_id: person,
      title: plain('teaching content written for pupils, shown to them'),
      visibility: none,
      survey: none,
      default_duration: none,
      nb_questions: none,
      creation_date: none,
      last_change_date: none,
    },
    retention: WHILE_USED,
    export: 'the quizzes the person wrote',
    erasure: 'keep-for-others',
  },
  {
    table: 'quiz_tags',
    holds: "a quiz's tags",
    subject: null,
    columns: { quiz_id: none, position: none, tag: plain('teaching content') },
    retention: WHILE_USED,
    export: NOT_PERSONAL,
    erasure: 'none',
  },
  {
    table: 'questions',
    holds: "a quiz's questions and their good answers",
    subject: null,
    columns: {
      id: none,
      quiz_id: none,
      position: none,
      type: none,
      title: plain('teaching content'),
      media_type: none,
      media_url: plain("a question's picture or video, teaching content"),
      propositions: plain('teaching content'),
      good_answer: plain("the quiz's expected answer, not a pupil's"),
      tolerance: none,
      case_sensitive: none,
    },
    retention: WHILE_USED,
    export: NOT_PERSONAL,
    erasure: 'none',
  },
  {
    table: 'user_quiz_flags',
    holds: "a user's favourite and imported quizzes",
    subject: 'the user',
    columns: { user_id: person, quiz_id: none, favorite: none, imported: none },
    retention: 'as long as the account exists',
    export: "the person's flags",
    erasure: 'delete',
  },
  {
    table: 'user_groups',
    holds: "a teacher's group of users (a class)",
    subject: 'the owner',
    columns: {
      id: none,
      name: as('free-text', 'typed by the teacher; may name a class or a pupil'),
      owner_id: person,
      created_at: none,
    },
    retention: WHILE_USED,
    export: 'the groups the person owns',
    erasure: 'keep-for-others',
  },
  {
    table: 'user_group_members',
    holds: "a group's members",
    subject: 'the member',
    columns: { group_id: none, user_id: person },
    retention: WHILE_USED,
    export: 'the groups the person is a member of',
    erasure: 'delete',
  },
  {
    table: 'api_keys',
    holds: 'an API key of an application, optionally of a user',
    subject: 'the owner',
    columns: {
      id: none,
      key_hash: as('hash', 'a SHA-256 of the key; the key itself is never stored'),
      key_prefix: plain("the key's first characters, shown to tell keys apart"),
      host: plain('the host name of the application the key serves'),
      label: as('free-text', 'typed by the owner'),
      owner_id: person,
      revoked_at: none,
      created_at: none,
      last_used_at: as('time'),
    },
    retention: 'as long as the database keeps it, revoked keys included',
    export: "the person's keys, without secrets",
    erasure: 'delete',
  },
  {
    table: 'access_tokens',
    holds: 'a signed-in session of a user through an application',
    subject: 'the user',
    columns: {
      id: none,
      token_hash: as('hash', 'a SHA-256 of the token'),
      user_id: person,
      api_key_id: plain('the API key of the application signed in through'),
      expires_at: none,
      created_at: as('time'),
    },
    retention: 'until it expires, then purged by the maintenance job',
    export: 'not exported: credentials',
    erasure: 'delete',
  },
  {
    table: 'web_sessions',
    holds: "a user's sign-in to the service's own pages",
    subject: 'the user',
    columns: {
      id: none,
      token_hash: as('hash', 'a SHA-256 of the cookie'),
      user_id: person,
      expires_at: none,
      created_at: as('time'),
    },
    retention: 'until it expires, then purged by the maintenance job',
    export: 'not exported: credentials',
    erasure: 'delete',
  },
  {
    table: 'login_failures',
    holds: 'a failed sign-in or join, counted to slow down guessing',
    subject: 'the account tried, and whoever tried it',
    columns: {
      id: none,
      account_hash: as('hash', 'a SHA-256 of the email or user tried'),
      client_ip: as('ip-address', "the client's address; 'joinSession' for failed joins"),
      failed_at: as('time'),
    },
    retention: 'LOGIN_FAILURE_WINDOW_SECONDS, then purged by the maintenance job',
    export: 'not exported: kept only to refuse guessing',
    erasure: 'delete',
  },
  {
    table: 'data_sets',
    holds: 'a set a requester made (users, quizzes, groups, results, statistics)',
    subject: 'the requester who made it',
    columns: {
      id: none,
      item_type: none,
      owner_user_id: person,
      owner_api_key_id: plain('the API key that made the set (the application)'),
      total_number_of_items: none,
      number_of_items_per_page: none,
      parameters: as('free-text', 'the request that made the set: ids and search words'),
      created_at: none,
      expires_at: none,
    },
    retention: 'DATASET_TTL_SECONDS after it was made, then purged by the maintenance job',
    export: 'the unexpired sets the person made',
    erasure: 'expire',
  },
  {
    table: 'data_set_items',
    holds: "a set's members in order",
    subject: 'the users a set of users lists',
    columns: {
      data_set_id: none,
      position: none,
      item_id: as('person', 'a user id when the set lists users; else a quiz or group id'),
    },
    retention: 'DATASET_TTL_SECONDS after the set was made',
    export: 'with the sets the person made',
    erasure: 'expire',
  },
  {
    table: 'computed_results',
    holds: 'the rows of a results set: scores of pupils on quizzes',
    subject: 'the pupils the results are about',
    columns: {
      data_set_id: none,
      position: none,
      user_id: person,
      quiz_id: none,
      session_id: none,
      aggregation_function: none,
      nb_good_answers: as('result'),
      good_answers_percent: as('result'),
      percentile: as('result'),
      nb_answers: as('result'),
      duration: as('result'),
    },
    retention: 'DATASET_TTL_SECONDS after the set was made',
    export: 'with the sets the person made',
    erasure: 'expire',
  },
  {
    table: 'question_statistics',
    holds: 'item analysis of a quiz over a set of users: counts and indices per question',
    subject: null,
    columns: {
      data_set_id: none,
      position: none,
      quiz_id: none,
      question_index: none,
      title: plain("the question's title, teaching content"),
      type: none,
      nb_attempts: none,
      nb_answers: plain('a count over the set'),
      nb_good_answers: plain('a count over the set'),
      facility: none,
      discrimination: none,
      choice_counts: plain('counts of choices, held back below SURVEY_MIN_RESPONSES'),
    },
    retention: 'DATASET_TTL_SECONDS after the set was made',
    export: NOT_PERSONAL,
    erasure: 'expire',
  },
  {
    table: 'quiz_statistics',
    holds: 'score distribution of a quiz over a set of users',
    subject: null,
    columns: {
      data_set_id: none,
      position: none,
      quiz_id: none,
      nb_attempts: none,
      mean: none,
      median: none,
      stddev: none,
      cronbach_alpha: none,
      histogram: none,
    },
    retention: 'DATASET_TTL_SECONDS after the set was made',
    export: NOT_PERSONAL,
    erasure: 'expire',
  },
  {
    table: 'rate_limits',
    holds: 'request counts per API key and per window',
    subject: null,
    columns: {
      key: plain("an API key's id, prefixed; no user id, no IP address"),
      points: none,
      expire: none,
    },
    retention: 'the window it counts, then purged by the maintenance job',
    export: NOT_PERSONAL,
    erasure: 'none',
  },
  {
    table: 'migrations',
    holds: 'the schema migrations applied',
    subject: null,
    columns: { id: none, timestamp: none, name: plain("a migration's class name") },
    retention: 'for ever',
    export: NOT_PERSONAL,
    erasure: 'none',
  },
  {
    table: 'migration_lock',
    holds: 'which instance migrates the schema',
    subject: null,
    columns: {
      name: plain("the lock's name"),
      holder: plain("an instance's host name and process id"),
      acquired_at: none,
      expires_at: none,
    },
    retention: 'while a migration runs',
    mayBeAbsent: 'made by the migration lease of MariaDB and MySQL only',
    export: NOT_PERSONAL,
    erasure: 'none',
  },
];

/** A column as the database describes it, with the table its foreign key references, if any. */
export interface SchemaColumn {
  table: string;
  column: string;
  references?: string;
}

/**
 * Column names that suggest personal data: such a column declared as holding none must say why
 * (its `note`), so a new `teacher_email` or `client_ip` cannot slip in as "nothing".
 */
const LOOKS_PERSONAL =
  /(^|_)(user|owner|author|member|email|mail|name|title|label|ip|address|value|answer|text|picture|photo|phone|birth|password|token|secret|key|ref|holder|parameters|url|tag|propositions)(_|s?$)/;

/**
 * How the registry and the database disagree (none: they agree): a table or a column the
 * registry lacks or names in vain, a column referencing users not declared as naming a person,
 * a personal-looking column declared as holding nothing without a reason.
 */
export function registryProblems(
  schema: readonly SchemaColumn[],
  registry: readonly TableEntry[] = PERSONAL_DATA_REGISTRY,
): string[] {
  const problems: string[] = [];
  const byTable = new Map(registry.map((entry) => [entry.table, entry]));
  const tables = new Set(schema.map(({ table }) => table));
  const columns = new Set(schema.map(({ table, column }) => `${table}.${column}`));
  for (const table of tables) {
    if (!byTable.has(table)) problems.push(`table ${table} is not in the registry`);
  }
  for (const { table, column, references } of schema) {
    const declared = byTable.get(table)?.columns[column];
    if (!byTable.has(table)) continue;
    if (!declared) {
      problems.push(`column ${table}.${column} is not in the registry`);
    } else if (references === 'users' && declared.category !== 'person') {
      problems.push(`column ${table}.${column} references users but is not declared as a person`);
    } else if (declared.category === null && !declared.note && LOOKS_PERSONAL.test(column)) {
      problems.push(`column ${table}.${column} looks personal: declare it, or say why it is not`);
    }
  }
  for (const entry of registry) {
    if (!tables.has(entry.table)) {
      if (!entry.mayBeAbsent) problems.push(`table ${entry.table} is in the registry only`);
    } else {
      for (const column of Object.keys(entry.columns)) {
        if (!columns.has(`${entry.table}.${column}`)) {
          problems.push(`column ${entry.table}.${column} is in the registry only`);
        }
      }
    }
    const personal = Object.values(entry.columns).some((c) => c.category !== null);
    if (personal !== (entry.subject !== null)) {
      problems.push(`table ${entry.table}: a subject is named exactly when a column is personal`);
    }
  }
  return problems;
}

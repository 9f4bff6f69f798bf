import type { AttemptScope } from '../../domain/policy/access.policy';
import { QUIZ_LIMITS } from '../../domain/quizzes/quiz-content.validator';
import { attemptScopeSql } from './access-policy.sql';
import type { Dialect } from './dialect';
import { sessionFilter, type ResultsSets } from './result-attempts.sql';
import { roundedSql } from './rounding.sql';
import type { RowsQuery } from './rows-query.sql';
import type { SqlFragment, SqlParam } from './sql-fragment';

/**
 * The queries of item analysis (contract.md §12), run inside the database like results: their
 * rows are written into the set by INSERT … SELECT (services/sets/data-set.store.ts), never read
 * by the process.
 *
 * Every statistic comes from integer sums, so both dialects compute the same numbers (SQLite has
 * no STDDEV) and ties round alike. For a question with score x (0/1) in an attempt of total T
 * (good answers), over the n attempts of its quiz, with G = Σx (good answers to it),
 * XT = Σ x·T, ST = ΣT and ST2 = ΣT², the rest score y = T − x has Σy = ST − G,
 * Σy² = ST2 − 2·XT + G and Σxy = XT − G; the Pearson correlation is then
 * (n·Σxy − G·Σy) / √((n·G − G²)(n·Σy² − (Σy)²)).
 * Cronbach's alpha over k questions is k/(k−1) × (1 − Σ G(n−G) / (n·ST2 − ST²)): the question
 * variances and the total variance share the factor 1/n².
 */

export interface StatisticsRequest {
  sets: ResultsSets;
  /** null: every session. */
  sessionIds: number[] | null;
  /** The attempts counted: those the requester may see in detail. */
  scope: AttemptScope;
  /** Only these quizzes of the quiz set (QuizStatistic.questions of a page); absent: all. */
  quizIds?: readonly number[];
  /**
   * The fewest counted attempts for which a survey question's choice counts are shown
   * (contract.md §14.1): below it they are null, so a survey of one pupil is not read back.
   */
  surveyMinResponses: number;
}

/** The two question types whose answers choose propositions by index. */
const CHOICE_TYPES = `('MultipleChoicesOneGoodAnswer', 'MultipleChoicesSeveralGoodAnswers')`;
const PROPOSITIONS = Array.from({ length: QUIZ_LIMITS.propositions.max }, (_, index) => index);
const BINS = Array.from({ length: 10 }, (_, index) => index);

/** The answers counted (alias `a`): the two sets, the sessions asked for, the attempt scope. */
function countedAnswers(dialect: Dialect, request: StatisticsRequest): SqlFragment {
  const users = request.sets.users.ids('us');
  const quizzes = request.sets.quizzes.ids('qs');
  const only = onlyQuizzes(dialect, request, 'a.quiz_id');
  const sessions = sessionFilter(dialect, request);
  const seen = attemptScopeSql(request.scope, 'a');
  return {
    sql: `a.user_id IN (${users.sql})
     AND a.quiz_id IN (${quizzes.sql})${only.sql}${sessions.sql}${seen ? `\n     AND ${seen.sql}` : ''}`,
    params: [
      ...users.params,
      ...quizzes.params,
      ...only.params,
      ...sessions.params,
      ...(seen?.params ?? []),
    ],
  };
}

/**
 * The pupils whose attempts item analysis counts (its access-log subjects, contract.md §14.6):
 * the users of the counted answers, as a SELECT of `subject_user_id`.
 */
export function countedSubjects(dialect: Dialect, request: StatisticsRequest): SqlFragment {
  const counted = countedAnswers(dialect, request);
  return {
    sql: `SELECT DISTINCT a.user_id AS subject_user_id FROM answers a WHERE ${counted.sql}`,
    params: counted.params,
  };
}

/** ` AND <column> IN (…)` when the request names its quizzes, else nothing. */
function onlyQuizzes(dialect: Dialect, request: StatisticsRequest, column: string): SqlFragment {
  if (!request.quizIds) return { sql: '', params: [] };
  return {
    sql: ` AND ${column} IN (${dialect.placeholders(request.quizIds.length)})`,
    params: [...request.quizIds],
  };
}

/**
 * Whether the stored answer `value` (JSON: an index, or a sorted array of indexes) chose
 * proposition `index`.
 */
function chooses(dialect: Dialect, value: string, index: number): string {
  const listed = dialect.concat([`','`, `SUBSTR(${value}, 2, LENGTH(${value}) - 2)`, `','`]);
  return `(${value} = '${index}' OR (${value} LIKE '[%' AND ${listed} LIKE '%,${index},%'))`;
}

/** `[c0,c1,…]` of the first `count` of the columns, as text. */
function jsonCounts(dialect: Dialect, columns: readonly string[], count: string | null): string {
  const [first, ...rest] = columns;
  const parts = rest.map((column, offset) =>
    count === null
      ? dialect.concat([`','`, column])
      : `CASE WHEN ${count} > ${offset + 1} THEN ${dialect.concat([`','`, column])} ELSE '' END`,
  );
  return dialect.concat([`'['`, first as string, ...parts, `']'`]);
}

/**
 * The counted attempts (user, quiz, session) with T, their good answers: read from the covering
 * answer indexes alone, like the attempts of results.
 */
function attemptsStage(counted: SqlFragment): string {
  return `attempts AS (
  SELECT a.user_id AS user_id, a.quiz_id AS quiz_id, a.session_id AS session_id,
         SUM(CASE WHEN a.good = 1 THEN 1 ELSE 0 END) AS total
    FROM answers a
   WHERE ${counted.sql}
   GROUP BY a.user_id, a.quiz_id, a.session_id
)`;
}

/**
 * The answers `a` of the counted attempts `t`, each beside its attempt: the attempts are read
 * first and their answers by (user, quiz, session), in an order the planner may not change (it
 * would otherwise read every answer of the users and look their attempts up).
 */
function attemptAnswers(dialect: Dialect): string {
  return `attempts t
    ${dialect.straightJoin} answers a
      ON a.user_id = t.user_id AND a.quiz_id = t.quiz_id AND a.session_id = t.session_id`;
}

/**
 * One row per question of every quiz of the quiz set, in (quiz, question) order, with the
 * columns of question_statistics. The attempts come from the index alone; only then are the
 * answers of those attempts read (by ranges of ix_answers_user_quiz, the join order forced), for
 * their question and choices: a user's answers to quizzes outside the set are never read.
 */
export function questionStatisticsQuery(dialect: Dialect, request: StatisticsRequest): RowsQuery {
  const counted = countedAnswers(dialect, request);
  const only = onlyQuizzes(dialect, request, 'g.item_id');
  // Each answer's choices, read off its text as it is joined: the grouping holds numbers only.
  const choiceSums = PROPOSITIONS.map(
    (index) =>
      `SUM(CASE WHEN ${chooses(dialect, 'a.value', index)} THEN 1 ELSE 0 END) AS c${index}`,
  );
  const quizRows = request.sets.quizzes.rows('g');
  const n = 'qs.n';
  const g = 'COALESCE(k.g, 0)';
  const xt = 'COALESCE(k.xt, 0)';
  const sy = `(qs.st - ${g})`;
  const syy = `(qs.st2 - 2 * ${xt} + ${g})`;
  const sxy = `(${xt} - ${g})`;
  const vx = `(${n} * ${g} - ${g} * ${g})`;
  const vy = `(${n} * ${syy} - ${sy} * ${sy})`;
  const survey = 'qn.good_answer IS NULL';
  // A whole number from the configuration, written as such: the column list takes no parameters.
  const fewest = Math.max(1, Math.trunc(request.surveyMinResponses));
  const counts = jsonCounts(
    dialect,
    PROPOSITIONS.map((index) => `COALESCE(k.c${index}, 0)`),
    dialect.jsonArrayLength('qn.propositions'),
  );
  return {
    with: {
      sql: `WITH ${attemptsStage(counted)}, quiz_sums AS (
  SELECT t.quiz_id AS quiz_id, COUNT(*) AS n, SUM(t.total) AS st, SUM(t.total * t.total) AS st2
    FROM attempts t
   GROUP BY t.quiz_id
), question_sums AS (
  SELECT a.question_id AS question_id, COUNT(*) AS nb_answers,
         SUM(CASE WHEN a.good = 1 THEN 1 ELSE 0 END) AS g,
         SUM(CASE WHEN a.good = 1 THEN t.total ELSE 0 END) AS xt,
         ${choiceSums.join(',\n         ')}
    FROM ${attemptAnswers(dialect)}
   GROUP BY a.question_id
)`,
      params: counted.params,
    },
    columns: [
      { name: 'position', sql: 'ROW_NUMBER() OVER (ORDER BY qn.quiz_id, qn.position)' },
      { name: 'quiz_id', sql: 'qn.quiz_id' },
      { name: 'question_index', sql: 'qn.position' },
      { name: 'title', sql: 'qn.title' },
      { name: 'type', sql: 'qn.type' },
      { name: 'nb_attempts', sql: `COALESCE(${n}, 0)` },
      { name: 'nb_answers', sql: 'COALESCE(k.nb_answers, 0)' },
      { name: 'nb_good_answers', sql: `CASE WHEN ${survey} THEN NULL ELSE ${g} END` },
      {
        name: 'facility',
        sql: `CASE WHEN ${survey} OR ${n} IS NULL THEN NULL
                   ELSE ${roundedSql(dialect, `1e2 * ${g} / ${n}`)} END`,
      },
      {
        // Either variance zero (or no attempt): no correlation.
        name: 'discrimination',
        sql: `CASE WHEN ${survey} OR ${n} IS NULL OR ${vx} = 0 OR ${vy} = 0 THEN NULL
                   ELSE ${roundedSql(dialect, `(${n} * ${sxy} - ${g} * ${sy}) / SQRT(1e0 * ${vx} * ${vy})`)} END`,
      },
      {
        name: 'choice_counts',
        sql: `CASE WHEN qn.type NOT IN ${CHOICE_TYPES} THEN NULL
                   WHEN ${survey} AND COALESCE(${n}, 0) < ${fewest} THEN NULL
                   ELSE ${counts} END`,
      },
    ],
    from: {
      sql: `  FROM ${quizRows.table.sql}
  JOIN questions qn ON qn.quiz_id = g.item_id
  LEFT JOIN quiz_sums qs ON qs.quiz_id = qn.quiz_id
  LEFT JOIN question_sums k ON k.question_id = qn.id
 WHERE ${quizRows.where?.sql ?? '1 = 1'}${only.sql}`,
      params: [
        ...quizRows.table.params,
        ...(quizRows.where?.params ?? []),
        ...only.params,
      ] as SqlParam[],
    },
    orderBy: 'position',
  };
}

/**
 * One row per quiz of the quiz set, in the set's order, with the columns of quiz_statistics.
 * The attempts' totals come from the covering answer indexes; the good answers per question,
 * for the question variances of alpha, from the answers of those attempts alone (`goods`):
 * Σ G(n−G) = n·ΣG − ΣG², and ΣG is ST.
 */
export function quizStatisticsQuery(dialect: Dialect, request: StatisticsRequest): RowsQuery {
  const counted = countedAnswers(dialect, request);
  const quizRows = request.sets.quizzes.rows('g');
  const bin = `CASE WHEN r.total >= r.k THEN 9 ELSE ${dialect.integerDivide('10 * r.total', 'r.k')} END`;
  const bins = BINS.map(
    (index) => `SUM(CASE WHEN ${bin} = ${index} THEN 1 ELSE 0 END) AS h${index}`,
  );
  const middle = 'CASE WHEN 2 * r.rn BETWEEN r.c AND r.c + 2 THEN r.total END';
  const variance = '(s.n * s.st2 - s.st * s.st)';
  const none = 'q.survey = 1 OR s.n IS NULL';
  const k = 'q.nb_questions';
  return {
    with: {
      sql: `WITH ${attemptsStage(counted)}, ranked AS (
  SELECT t.quiz_id AS quiz_id, t.total AS total, q.nb_questions AS k,
         ROW_NUMBER() OVER (PARTITION BY t.quiz_id ORDER BY t.total) AS rn,
         COUNT(*) OVER (PARTITION BY t.quiz_id) AS c
    FROM attempts t
    JOIN quizzes q ON q.id = t.quiz_id
), sums AS (
  SELECT r.quiz_id AS quiz_id, COUNT(*) AS n, SUM(r.total) AS st, SUM(r.total * r.total) AS st2,
         MIN(${middle}) + MAX(${middle}) AS middle2,
         ${bins.join(',\n         ')}
    FROM ranked r
   GROUP BY r.quiz_id
), goods AS (
  SELECT a.quiz_id AS quiz_id, SUM(CASE WHEN a.good = 1 THEN 1 ELSE 0 END) AS g
    FROM ${attemptAnswers(dialect)}
   GROUP BY a.quiz_id, a.question_id
), items AS (
  SELECT o.quiz_id AS quiz_id, SUM(o.g * o.g) AS g2
    FROM goods o
   GROUP BY o.quiz_id
)`,
      params: counted.params,
    },
    columns: [
      { name: 'position', sql: 'ROW_NUMBER() OVER (ORDER BY g.position)' },
      { name: 'quiz_id', sql: 'g.item_id' },
      { name: 'nb_attempts', sql: 'COALESCE(s.n, 0)' },
      {
        name: 'mean',
        sql: `CASE WHEN ${none} THEN NULL ELSE ${roundedSql(dialect, `1e2 * s.st / (s.n * ${k})`)} END`,
      },
      {
        // middle2: twice the middle total, or the two middle ones added.
        name: 'median',
        sql: `CASE WHEN ${none} THEN NULL ELSE ${roundedSql(dialect, `1e2 * s.middle2 / (2 * ${k})`)} END`,
      },
      {
        name: 'stddev',
        sql: `CASE WHEN ${none} THEN NULL
                   ELSE ${roundedSql(dialect, `1e2 * SQRT(1e0 * ${variance}) / (s.n * ${k})`)} END`,
      },
      {
        name: 'cronbach_alpha',
        sql: `CASE WHEN ${none} OR s.n < 2 OR ${k} < 2 OR ${variance} = 0 THEN NULL
                   ELSE ${roundedSql(
                     dialect,
                     `${k} / (${k} - 1e0) * (1 - (s.n * s.st - COALESCE(i.g2, 0)) / (1e0 * ${variance}))`,
                   )} END`,
      },
      {
        name: 'histogram',
        sql: `CASE WHEN q.survey = 1 THEN NULL ELSE ${jsonCounts(
          dialect,
          BINS.map((index) => `COALESCE(s.h${index}, 0)`),
          null,
        )} END`,
      },
    ],
    from: {
      sql: `  FROM ${quizRows.table.sql}
  JOIN quizzes q ON q.id = g.item_id
  LEFT JOIN sums s ON s.quiz_id = g.item_id
  LEFT JOIN items i ON i.quiz_id = g.item_id${quizRows.where ? `\n WHERE ${quizRows.where.sql}` : ''}`,
      params: [...quizRows.table.params, ...(quizRows.where?.params ?? [])] as SqlParam[],
    },
    orderBy: 'position',
  };
}

/**
 * The floors of the item analysis operations (contract.md §12): each one hand-written SELECT,
 * run through mysql2, that computes every item of the set from the answers, questions and
 * quizzes tables and the two stored sets, every row read back.
 *
 * - Exact arithmetic where it can be: sums of integers, ratios as DECIMAL with 16 digits after
 *   the point, so that rounding to 2 decimals (ROUND of a DECIMAL: half away from zero) is done
 *   once on the exact value; the histogram's tenth by integer division. The two square roots
 *   (stddev, discrimination) are doubles, cast to DECIMAL(30,12) before rounding so that a half
 *   is not rounded to even as ROUND of a DOUBLE does.
 * - No TEXT column is ever materialized (a TEXT column sends a temporary table to disk): the
 *   answer's value is read only inside the aggregates.
 * - split_materialized=off: with it, MariaDB 10.11 computes the per-question sums as a lateral
 *   derived table, once per question of the quiz set, and materializes the attempts again in
 *   each (minutes for 2,000 questions instead of a tenth of a second).
 */
import type mysql from 'mysql2/promise';

export interface StatisticsCase {
  userSetId: number;
  quizSetId: number;
}

export type StatisticsOperation = 'question' | 'quiz';

const NO_LATERAL = `SET STATEMENT optimizer_switch = 'split_materialized=off' FOR`;

/** The contract allows 2 to 10 propositions (contract.md §4): indexes 0 to 9. */
const CHOICES = Array.from({ length: 10 }, (_, i) => i);

/**
 * The counted attempts (user, quiz, session) with T, their good answers: answers of users of
 * the user set on quizzes of the quiz set, in attempts the requester may see in detail (in a
 * session it owns, or its own). A survey answer (good NULL) counts as not good.
 */
const ATTEMPTS = `
  att AS (
    SELECT a.user_id, a.quiz_id, a.session_id, SUM(IFNULL(a.good, 0)) AS t
      FROM answers a
     WHERE a.user_id IN (SELECT us.item_id FROM data_set_items us WHERE us.data_set_id = ?)
       AND a.quiz_id IN (SELECT qs.item_id FROM data_set_items qs WHERE qs.data_set_id = ?)
       AND (a.session_id IN (SELECT s.id FROM sessions s WHERE s.owner_id = ?) OR a.user_id = ?)
     GROUP BY a.user_id, a.quiz_id, a.session_id)`;

/**
 * The answers of the counted attempts, each with its attempt's total `t.t`. STRAIGHT_JOIN: the
 * attempts first, their answers by (user, quiz, session) through ix_answers_user_quiz; MariaDB's
 * estimate of the attempts (the product of the two sets' sizes) would otherwise have it scan
 * every answer of the table and look its attempt up.
 */
const ATTEMPT_ANSWERS = `att t STRAIGHT_JOIN answers a
        ON a.user_id = t.user_id AND a.quiz_id = t.quiz_id AND a.session_id = t.session_id`;

/**
 * The service's SURVEY_MIN_RESPONSES (the service inherits the bench's environment; 5 by
 * default): a survey question's choice counts over fewer attempts are held back (null), so that
 * a handful of pupils' answers cannot be told apart (contract.md §14).
 */
export const SURVEY_MIN_RESPONSES = Number(process.env.SURVEY_MIN_RESPONSES ?? 5);

const MULTIPLE_CHOICE = `q.type IN ('MultipleChoicesOneGoodAnswer', 'MultipleChoicesSeveralGoodAnswers')`;

/** `[c0,c1,…]` for the question's number of propositions. */
const CHOICE_COUNTS = `CONCAT('[', CONCAT_WS(',', ${CHOICES.map(
  (i) => `IF(JSON_LENGTH(q.propositions) > ${i}, IFNULL(k.c${i}, 0), NULL)`,
).join(', ')}), ']')`;

const halfAwayFromZero = (double: string) => `ROUND(CAST(${double} AS DECIMAL(30,12)), 2)`;

/**
 * One row per question of every quiz of the quiz set, by (quiz, position). Per quiz: n
 * attempts, st = ΣT, stt = ΣT². Per question: g good answers, gt = ΣT over the attempts that
 * answered it well, c0…c9 the answers choosing each proposition (JSON_CONTAINS of the value,
 * `2` or `[0,2]`). With x the question's 0/1 score and y = T − x over the n attempts (an
 * unanswered question scores 0): Σx = Σx² = g, Σy = st − g, Σy² = stt − 2·gt + g,
 * Σxy = gt − g, and r = (n·Σxy − Σx·Σy) / √((n·Σx² − (Σx)²)·(n·Σy² − (Σy)²)).
 */
export const QUESTION_STATISTICS_FLOOR = `${NO_LATERAL}
  WITH ${ATTEMPTS},
  per_quiz AS (
    SELECT quiz_id, COUNT(*) AS n, SUM(t) AS st, SUM(t * t) AS stt FROM att GROUP BY quiz_id),
  per_question AS (
    SELECT a.question_id, COUNT(*) AS nb_answers, SUM(IFNULL(a.good, 0)) AS g,
           SUM(IFNULL(a.good, 0) * t.t) AS gt,
           ${CHOICES.map((i) => `SUM(JSON_CONTAINS(a.value, '${i}')) AS c${i}`).join(',\n           ')}
      FROM ${ATTEMPT_ANSWERS}
     GROUP BY a.question_id),
  moments AS (
    SELECT q.id, q.quiz_id, q.position, q.title, q.type,
           q.good_answer IS NOT NULL AS scored, IFNULL(m.n, 0) AS n,
           IFNULL(k.nb_answers, 0) AS nb_answers, IFNULL(k.g, 0) AS g,
           CASE WHEN ${MULTIPLE_CHOICE}
                     AND (q.good_answer IS NOT NULL OR IFNULL(m.n, 0) >= ${SURVEY_MIN_RESPONSES})
                THEN ${CHOICE_COUNTS} END AS choice_counts,
           m.n * (IFNULL(k.gt, 0) - IFNULL(k.g, 0)) - IFNULL(k.g, 0) * (m.st - IFNULL(k.g, 0))
             AS cov,
           IFNULL(k.g, 0) * (m.n - IFNULL(k.g, 0)) AS var_x,
           m.n * (m.stt - 2 * IFNULL(k.gt, 0) + IFNULL(k.g, 0))
             - (m.st - IFNULL(k.g, 0)) * (m.st - IFNULL(k.g, 0)) AS var_y
      FROM data_set_items qs
      JOIN questions q ON q.quiz_id = qs.item_id
      LEFT JOIN per_quiz m ON m.quiz_id = q.quiz_id
      LEFT JOIN per_question k ON k.question_id = q.id
     WHERE qs.data_set_id = ?)
  SELECT o.quiz_id, o.position AS question_index, o.title, o.type, o.n AS nb_attempts,
         o.nb_answers,
         CASE WHEN o.scored AND o.n > 0 THEN ROUND(100.0000000000000000 * o.g / o.n, 2) END
           AS facility,
         CASE WHEN o.scored AND o.var_x > 0 AND o.var_y > 0
              THEN ${halfAwayFromZero('o.cov / SQRT(o.var_x * o.var_y)')} END AS discrimination,
         o.choice_counts
    FROM moments o
   ORDER BY o.quiz_id, o.position`;

/**
 * One row per quiz of the quiz set, by id. Per attempt T good answers of k questions (the
 * quiz's rows in questions), percent = 100·T/k. Per quiz: n attempts, st = ΣT,
 * d = n·ΣT² − st² (n² times the variance of T), T₁ + T₂ the two middle totals by rank (the
 * same one twice when n is odd), and sv = Σ_q g_q·(n − g_q) = n·st − Σ_q g_q² over its
 * questions (n² times the sum of the question variances, g_q its good answers: Σ_q g_q = st).
 * Then mean = 100·st/(n·k), median = 100·(T₁ + T₂)/(2k), stddev = 100·√d/(n·k) and
 * alpha = k·(d − sv)/((k − 1)·d).
 */
export const QUIZ_STATISTICS_FLOOR = `${NO_LATERAL}
  WITH ${ATTEMPTS},
  sizes AS (
    SELECT q.quiz_id, COUNT(*) AS k FROM questions q
     WHERE q.quiz_id IN (SELECT qs.item_id FROM data_set_items qs WHERE qs.data_set_id = ?)
     GROUP BY q.quiz_id),
  ranked AS (
    SELECT t.quiz_id, t.t, (10 * t.t) DIV z.k AS tenth,
           ROW_NUMBER() OVER (PARTITION BY t.quiz_id ORDER BY t.t) AS rn,
           COUNT(*) OVER (PARTITION BY t.quiz_id) AS n
      FROM att t JOIN sizes z ON z.quiz_id = t.quiz_id),
  moments AS (
    SELECT r.quiz_id, MAX(r.n) AS n, SUM(r.t) AS st,
           MAX(r.n) * SUM(r.t * r.t) - SUM(r.t) * SUM(r.t) AS d,
           SUM(CASE WHEN r.rn = (r.n + 1) DIV 2 THEN r.t ELSE 0 END)
             + SUM(CASE WHEN r.rn = (r.n + 2) DIV 2 THEN r.t ELSE 0 END) AS mid2,
           CONCAT('[', CONCAT_WS(',', ${CHOICES.map((i) =>
             i < 9 ? `SUM(r.tenth = ${i})` : `SUM(r.tenth >= 9)`,
           ).join(', ')}), ']') AS histogram
      FROM ranked r GROUP BY r.quiz_id),
  per_question AS (
    SELECT a.quiz_id, a.question_id, SUM(IFNULL(a.good, 0)) AS g
      FROM ${ATTEMPT_ANSWERS}
     GROUP BY a.quiz_id, a.question_id),
  item_squares AS (SELECT quiz_id, SUM(g * g) AS sg2 FROM per_question GROUP BY quiz_id)
  SELECT z.id AS quiz_id, IFNULL(m.n, 0) AS nb_attempts,
         CASE WHEN NOT z.survey AND m.n > 0
              THEN ROUND(100.0000000000000000 * m.st / (m.n * s.k), 2) END AS mean,
         CASE WHEN NOT z.survey AND m.n > 0
              THEN ROUND(100.0000000000000000 * m.mid2 / (2 * s.k), 2) END AS median,
         CASE WHEN NOT z.survey AND m.n > 0
              THEN ${halfAwayFromZero('100 * SQRT(m.d) / (m.n * s.k)')} END AS stddev,
         CASE WHEN NOT z.survey AND m.n >= 2 AND s.k >= 2 AND m.d > 0
              THEN ROUND(1.0000000000000000 * s.k * (m.d - (m.n * m.st - v.sg2)) / ((s.k - 1) * m.d), 2)
              END AS cronbach_alpha,
         CASE WHEN NOT z.survey THEN IFNULL(m.histogram, '[0,0,0,0,0,0,0,0,0,0]') END AS histogram
    FROM data_set_items qs
    JOIN quizzes z ON z.id = qs.item_id
    LEFT JOIN sizes s ON s.quiz_id = z.id
    LEFT JOIN moments m ON m.quiz_id = z.id
    LEFT JOIN item_squares v ON v.quiz_id = z.id
   WHERE qs.data_set_id = ?
   ORDER BY z.id`;

/** The floor's statement for an operation and case, with its parameters. */
export function statisticsFloor(
  operation: StatisticsOperation,
  c: StatisticsCase,
  requesterId: number,
): { sql: string; params: number[] } {
  const attempts = [c.userSetId, c.quizSetId, requesterId, requesterId];
  return operation === 'question'
    ? { sql: QUESTION_STATISTICS_FLOOR, params: [...attempts, c.quizSetId] }
    : { sql: QUIZ_STATISTICS_FLOOR, params: [...attempts, c.quizSetId, c.quizSetId] };
}

export async function statisticsFloorRun(
  conn: mysql.Connection,
  operation: StatisticsOperation,
  c: StatisticsCase,
  requesterId: number,
): Promise<mysql.RowDataPacket[]> {
  const { sql, params } = statisticsFloor(operation, c, requesterId);
  const [rows] = await conn.query<mysql.RowDataPacket[]>(sql, params);
  return rows;
}

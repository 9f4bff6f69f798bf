/** EXPLAIN of the service's statement on tier M: answers must be read through an index. */
import type mysql from 'mysql2/promise';
import { out, SHAPE_LABEL, SHAPES } from './results-bench.config';
import { resultsInsertStatement } from './results-bench.floor';
import type { Prepared } from './results-bench.tiers';

export interface ExplainRow {
  id: number | null;
  select_type: string;
  table: string | null;
  type: string | null;
  possible_keys: string | null;
  key: string | null;
  key_len: string | null;
  ref: string | null;
  rows: number | null;
  Extra: string | null;
}

export function printExplain(title: string, rows: ExplainRow[]): boolean {
  out(`\n${title}`);
  out(
    `${'id'.padEnd(3)} ${'select_type'.padEnd(16)} ${'table'.padEnd(14)} ${'type'.padEnd(7)} ${'key'.padEnd(28)} ${'ref'.padEnd(28)} ${'rows'.padStart(8)}  Extra`,
  );
  for (const r of rows) {
    out(
      `${String(r.id ?? '').padEnd(3)} ${String(r.select_type).padEnd(16)} ${String(r.table ?? '').padEnd(14)} ${String(r.type ?? '').padEnd(7)} ${String(r.key ?? '').padEnd(28)} ${String(
        r.ref ?? '',
      )
        .slice(0, 28)
        .padEnd(28)} ${String(r.rows ?? '').padStart(8)}  ${r.Extra ?? ''}`,
    );
  }
  // The answers table appears under its alias `a`.
  const answers = rows.filter((r) => r.table === 'a');
  const byIndex =
    answers.length > 0 &&
    answers.every(
      (r) =>
        ['ref', 'range', 'eq_ref'].includes(String(r.type)) &&
        /^(ix|uq)_answers_/.test(String(r.key ?? '')),
    );
  out(
    answers.length === 0
      ? 'CHECK: answers not found in the plan'
      : byIndex
        ? `CHECK: answers read by index (${answers.map((r) => `type ${r.type}, key ${r.key}`).join('; ')}) — no full scan`
        : `CHECK: FULL SCAN of answers (${answers.map((r) => `type ${r.type}, key ${r.key ?? 'none'}`).join('; ')})`,
  );
  return byIndex;
}

export async function explainTierM(conn: mysql.Connection, p: Prepared): Promise<boolean> {
  const userSetId = p.userSets.get(100) as number;
  let ok = true;
  for (const quizzes of [10, 100]) {
    const quizSetId = p.quizSets.get(quizzes) as number;
    for (const shape of SHAPES) {
      const c = { userSetId, quizSetId, shape };
      const { sql, params } = resultsInsertStatement(c, p.requesterId);
      const [rows] = await conn.query<mysql.RowDataPacket[]>(`EXPLAIN ${sql}`, params);
      ok =
        printExplain(
          `EXPLAIN service INSERT … SELECT (resultsInsertStatement), tier M, 100 users × ${quizzes} quizzes, ${SHAPE_LABEL[shape]}:`,
          rows as ExplainRow[],
        ) && ok;
    }
  }
  // The attempts stage alone, as the service writes its FROM / JOIN.
  const [rows] = await conn.query<mysql.RowDataPacket[]>(
    `EXPLAIN SELECT a.user_id, a.quiz_id, a.session_id, SUM(CASE WHEN a.good = 1 THEN 1 ELSE 0 END)
       FROM answers a
      WHERE a.user_id IN (SELECT us.item_id FROM data_set_items us WHERE us.data_set_id = ?)
        AND a.quiz_id IN (SELECT qs.item_id FROM data_set_items qs WHERE qs.data_set_id = ?)
      GROUP BY a.user_id, a.quiz_id, a.session_id`,
    [userSetId, p.quizSets.get(100)],
  );
  ok =
    printExplain(
      'EXPLAIN attempts SELECT alone (the FROM/WHERE of the service, replicated), tier M, 100 users × 100 quizzes:',
      rows as ExplainRow[],
    ) && ok;
  return ok;
}

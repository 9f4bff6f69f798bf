/** The service's statistic items against the floor's rows: the same computation? */
import type mysql from 'mysql2/promise';
import type { StatisticsOperation } from './statistics-bench.floor';
import type { StatisticItem } from './statistics-bench.requests';

type Kind = 'id' | 'int' | 'text' | 'number' | 'counts';

/** Item field, floor column, and how they compare. */
const FIELDS: Record<StatisticsOperation, [string, string, Kind][]> = {
  question: [
    ['quizId', 'quiz_id', 'id'],
    ['questionIndex', 'question_index', 'int'],
    ['title', 'title', 'text'],
    ['type', 'type', 'text'],
    ['nbAttempts', 'nb_attempts', 'int'],
    ['nbAnswers', 'nb_answers', 'int'],
    ['facility', 'facility', 'number'],
    ['discrimination', 'discrimination', 'number'],
    ['choiceCounts', 'choice_counts', 'counts'],
  ],
  quiz: [
    ['quizId', 'quiz_id', 'id'],
    ['nbAttempts', 'nb_attempts', 'int'],
    ['mean', 'mean', 'number'],
    ['median', 'median', 'number'],
    ['stddev', 'stddev', 'number'],
    ['cronbachAlpha', 'cronbach_alpha', 'number'],
    ['histogram', 'histogram', 'counts'],
  ],
};

function same(kind: Kind, item: unknown, row: unknown): boolean {
  if (item === null || row === null || item === undefined || row === undefined) {
    return (item ?? null) === (row ?? null);
  }
  switch (kind) {
    case 'id':
      return String(item) === String(row);
    case 'int':
      return typeof item === 'number' && item === Number(row);
    case 'text':
      return item === row;
    case 'number':
      // Both rounded to 2 decimals: they differ by 0.01 or more, or are the same number
      // (the floor's DECIMAL text against the service's JSON double).
      return typeof item === 'number' && Math.abs(item - Number(row)) < 0.005;
    case 'counts':
      return JSON.stringify(item) === JSON.stringify(JSON.parse(String(row)));
  }
}

const shown = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value));

/**
 * Undefined when the items are the floor's rows, in order, field by field (ids are positions
 * 1..n); else the first difference and the number of items that differ.
 */
export function compareStatistics(
  operation: StatisticsOperation,
  total: number,
  items: StatisticItem[],
  rows: mysql.RowDataPacket[],
): string | undefined {
  if (total !== rows.length) return `service ${total} items, floor ${rows.length} rows`;
  if (items.length > rows.length) return `service ${items.length} items read, floor ${rows.length}`;
  let first: string | undefined;
  let differing = 0;
  items.forEach((item, index) => {
    const row = rows[index] as mysql.RowDataPacket;
    const problems: string[] = [];
    // REST numbers the items of a page from 1; GraphQL names them `<dataSetId>:<number>`, an id
    // unique across sets for normalising caches (contract.md §15).
    const id = String(item.id);
    if (id !== String(index + 1) && !id.endsWith(`:${index + 1}`)) {
      problems.push(`id ${shown(item.id)}`);
    }
    for (const [field, column, kind] of FIELDS[operation]) {
      if (!same(kind, item[field], row[column])) {
        problems.push(`${field} ${shown(item[field])} vs ${shown(row[column])}`);
      }
    }
    if (problems.length === 0) return;
    differing += 1;
    first ??= `item ${index + 1} (quiz ${String(row.quiz_id)}${
      operation === 'question' ? `, question ${String(row.question_index)}` : ''
    }): ${problems.join(', ')}`;
  });
  return first ? `${differing} of ${items.length} items differ; first: ${first}` : undefined;
}

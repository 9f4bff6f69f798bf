/**
 * The registry of aggregation functions (contract.md §7). Each one reads the values of a
 * group's attempts in the stage `ranked` (alias `r`), one column per result type (number
 * `index`), plus the window columns it asks for there, computed over the group. Every function
 * but count ignores null values (a score of a survey attempt) and is null when none is left.
 */
export interface AggregationDefinition {
  name: string;
  /** Window columns of `ranked` read for value column `column`, suffixed by its `index`. */
  windows?(key: string, column: string, index: number): string[];
  /** Its value over the group's rows, `x` being the value column. */
  sql(x: string, index: number): string;
  /** Its value for a member without attempts; NULL when absent. */
  empty?: string;
}

export const AGGREGATION_DEFINITIONS = [
  { name: 'min', sql: (x) => `MIN(${x})` },
  { name: 'max', sql: (x) => `MAX(${x})` },
  { name: 'average', sql: (x) => `AVG(${x})` },
  {
    // The middle row, or the mean of the two middle rows (2r = c+1 when c is odd, c or c+2 when
    // even), among the c values that are not null: those are numbered apart from the nulls.
    name: 'median',
    windows: (key, column, index) => [
      `ROW_NUMBER() OVER (PARTITION BY v.${key}, v.${column} IS NULL ORDER BY v.${column}) AS rn_${index}`,
      `COUNT(v.${column}) OVER (PARTITION BY v.${key}) AS c_${index}`,
    ],
    sql: (x, index) => {
      const middle = `CASE WHEN 2 * r.rn_${index} BETWEEN r.c_${index} AND r.c_${index} + 2 THEN ${x} END`;
      return `(MIN(${middle}) + MAX(${middle})) / 2e0`;
    },
  },
  {
    // Population standard deviation, in two passes (mean by window) to avoid cancellation; over
    // the values that are not null (none: NULL, never a division by zero).
    name: 'stddev',
    windows: (key, column, index) => [
      `AVG(v.${column}) OVER (PARTITION BY v.${key}) AS mean_${index}`,
    ],
    sql: (x, index) =>
      `SQRT(SUM((${x} - r.mean_${index}) * (${x} - r.mean_${index})) / NULLIF(COUNT(${x}), 0))`,
  },
  // The number of attempts: 0 for a member without any.
  { name: 'count', sql: () => 'COUNT(*) + 0e0', empty: '0e0' },
] as const satisfies readonly AggregationDefinition[];

export type AggregationFunction = (typeof AGGREGATION_DEFINITIONS)[number]['name'];

export const AGGREGATION_FUNCTIONS: readonly AggregationFunction[] = AGGREGATION_DEFINITIONS.map(
  (fn) => fn.name,
);

/** The registry, each entry as an AggregationDefinition. */
export const AGGREGATIONS: readonly AggregationDefinition[] = AGGREGATION_DEFINITIONS;

const BY_NAME = new Map(AGGREGATIONS.map((fn) => [fn.name, fn]));

export function aggregationDefinition(name: AggregationFunction): AggregationDefinition {
  return BY_NAME.get(name) as AggregationDefinition;
}

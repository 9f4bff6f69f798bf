import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULT_TYPE_FIELDS } from '../../packages/client/src/session-results.watch';
import { dialectNamed } from '../../src/db/sql/dialect';
import { roundedSql } from '../../src/db/sql/rounding.sql';
import { DATA_SET_KINDS } from '../../src/services/set-kinds/set-kinds.registry';
import { membersInsert } from '../../src/services/sets/data-set.store';
import { computedResultItems } from '../../src/services/results/computed-result.views';
import { AGGREGATION_FUNCTIONS } from '../../src/domain/results/aggregation-functions.registry';
import {
  parseResultsRequest,
  resultsParametersJson,
} from '../../src/services/results/result-parameters';
import {
  ATTEMPT_MEASURES,
  readsQuiz,
  RESULT_TYPE_REGISTRY,
  RESULT_TYPES,
  valueSql,
  type AttemptMeasureName,
} from '../../src/domain/results/result-types.registry';
import { resultsQuery, selectResults } from '../../src/db/sql/results.sql';

/**
 * The result type registry is the one place a statistic is defined: the parser, the SQL
 * builder, the set store and the views all read it. No database here (see
 * results-select.test.ts for the statements run on both).
 */

const DIALECTS = [dialectNamed('mysql'), dialectNamed('sqlite')];
const ALL_SCOPE = { kind: 'all' } as const;

function request(resultTypes: string, extra: Record<string, string> = {}) {
  return parseResultsRequest('getResults', { userSetId: 1, quizSetId: 2, resultTypes, ...extra });
}

describe('the result type registry', () => {
  it('names each result type and column once, and reads only measures it defines', () => {
    expect(RESULT_TYPES).toEqual(RESULT_TYPE_REGISTRY.map((type) => type.name));
    expect(new Set(RESULT_TYPES).size).toBe(RESULT_TYPES.length);
    const columns = RESULT_TYPE_REGISTRY.map((type) => type.column);
    expect(new Set(columns).size).toBe(columns.length);
    for (const type of RESULT_TYPE_REGISTRY) {
      expect(type.measures.length).toBeGreaterThan(0);
      for (const measure of type.measures) expect(ATTEMPT_MEASURES).toHaveProperty(measure);
    }
  });

  it('is what the parser accepts, in the order asked', () => {
    const reversed = [...RESULT_TYPES].reverse();
    expect(request(reversed.join(',')).resultTypes).toEqual(reversed);
    expect(() => request('nbGoodAnswers,noSuchType')).toThrow(
      expect.objectContaining({
        reason: `"noSuchType" is not one of ${RESULT_TYPES.join(', ')}`,
      }) as Error,
    );
  });

  describe.each(DIALECTS.map((dialect) => [dialect.name, dialect] as const))(
    'in the %s SELECT',
    (_name, dialect) => {
      it.each(RESULT_TYPE_REGISTRY.map((type) => [type.name, type] as const))(
        '%s is computed from its own measures and written to its own column',
        (name, type) => {
          const { sql } = selectResults(request(name), dialect, ALL_SCOPE);
          expect(sql).toContain(`${valueSql(type, dialect)} AS ${type.column}`);
          expect(sql).toContain(`${roundedSql(dialect, `v.${type.column}`)} AS ${type.column}`);
          for (const [measureName, measure] of Object.entries(ATTEMPT_MEASURES)) {
            const used = type.measures.includes(measureName as AttemptMeasureName);
            expect(sql.includes(`${measure.sql(dialect)} AS ${measure.column}`)).toBe(used);
          }
          expect(sql.includes('JOIN quizzes q')).toBe(readsQuiz(type));
          expect(sql).toMatch(/ORDER BY position$/);
        },
      );

      it('gives the scores null on a survey quiz, and only them (contract §7)', () => {
        const scores = RESULT_TYPE_REGISTRY.filter((type) => type.scored).map((type) => type.name);
        expect(scores.sort()).toEqual(['goodAnswersPercent', 'nbGoodAnswers', 'percentile']);
        for (const type of RESULT_TYPE_REGISTRY) {
          const { sql } = selectResults(request(type.name), dialect, ALL_SCOPE);
          expect(sql.includes('CASE WHEN q.survey = 1 THEN NULL')).toBe(Boolean(type.scored));
          if (type.scored) expect(readsQuiz(type)).toBe(true);
        }
      });

      it('reads no answer and adds no zero under the scope none', () => {
        const aggregated = request('nbGoodAnswers', {
          aggregationFunctions: 'count',
          groupBy: 'user',
          includeQuizzes: 'all',
        });
        const { sql } = selectResults(aggregated, dialect, { kind: 'none' });
        expect(sql).toMatch(/AND 1 = 0\n\s+GROUP BY a.user_id, a.quiz_id, a.session_id/);
        expect(sql).not.toContain('UNION ALL');
        // Under another scope the same request adds its zeros.
        expect(selectResults(aggregated, dialect, ALL_SCOPE).sql).toContain('UNION ALL');
      });

      it('computes each aggregation function of the registry, every result type at once', () => {
        for (const fn of AGGREGATION_FUNCTIONS) {
          const { sql } = selectResults(
            request(RESULT_TYPES.join(','), { aggregationFunctions: fn, groupBy: 'quiz' }),
            dialect,
            ALL_SCOPE,
          );
          RESULT_TYPES.forEach((_type, index) => expect(sql).toContain(`AS ${fn}_${index}`));
        }
      });
    },
  );

  it('gives the stored columns: page columns of the set kind, and the INSERT … SELECT of the store', () => {
    const pageColumns = DATA_SET_KINDS.computedResult.pageColumns;
    for (const type of RESULT_TYPE_REGISTRY) expect(pageColumns).toContain(type.column);

    const query = resultsQuery(
      request('percentile,duration', { sessionIds: '4,5' }),
      dialectNamed('mysql'),
      { kind: 'ownedSessionsOrSelf', userId: 9 },
    );
    const insert = membersInsert('computedResult', 77, query);
    expect(insert.sql).toMatch(
      /^INSERT INTO computed_results \(data_set_id, position, user_id, quiz_id, session_id, aggregation_function, percentile, duration\)\nWITH /,
    );
    expect(insert.sql).not.toMatch(/ORDER BY position$/);
    // The set's id comes after the stages' parameters and before the final WHERE's.
    expect(insert.params).toEqual([...query.with.params, 77, ...query.from.params]);
    expect(query.from.params).toEqual([9, 9]);
  });

  it('is how the views read a stored row', () => {
    const row: Record<string, unknown> = {
      position: 1,
      user_id: 3,
      quiz_id: 4,
      session_id: 5,
      aggregation_function: null,
    };
    RESULT_TYPE_REGISTRY.forEach((type, index) => (row[type.column] = index + 0.5));
    const parameters = resultsParametersJson(request([...RESULT_TYPES].reverse().join(',')));
    const [item] = computedResultItems({ resultRows: [row], parameters });
    expect(item?.values).toEqual(
      [...RESULT_TYPE_REGISTRY]
        .map((type, index) => ({ type: type.name, value: index + 0.5 }))
        .reverse(),
    );
  });
});

describe('the client library', () => {
  // The client ships without the server's code: its ResultType and AggregationFunction are the
  // getResults parameters' enums of its generated wire types (openapi.generated.ts, kept equal
  // to schema/openapi.json by contracts.contract.test.ts); they must name the registries'.
  const source = readFileSync(join(__dirname, '../../packages/client/src/types.ts'), 'utf8');
  const generated = readFileSync(
    join(__dirname, '../../packages/client/src/openapi.generated.ts'),
    'utf8',
  );
  const getResults = generated.slice(generated.indexOf('  getResults: {'));
  const parameterEnum = (parameter: string) =>
    [
      ...(
        getResults.match(new RegExp(`${parameter}\\?: \\(?([^;]+?)\\)?\\[\\];`))?.[1] ?? ''
      ).matchAll(/'(\w+)'/g),
    ]
      .map((match) => match[1])
      .sort();

  it('names every result type and aggregation function of the registries', () => {
    expect(source).toMatch(
      /export type ResultType = NonNullable<GetResultsQuery\['resultTypes'\]>\[number\];/,
    );
    expect(source).toMatch(
      /export type AggregationFunction = NonNullable<GetResultsQuery\['aggregationFunctions'\]>\[number\];/,
    );
    expect(parameterEnum('resultTypes')).toEqual([...RESULT_TYPES].sort());
    expect(parameterEnum('aggregationFunctions')).toEqual([...AGGREGATION_FUNCTIONS].sort());
  });

  it('selects every result type in live results, in the order of the registry', () => {
    expect(RESULT_TYPE_FIELDS).toEqual(RESULT_TYPES);
  });
});

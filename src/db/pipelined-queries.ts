import type { QueryRunner } from 'typeorm';

/** A statement with its `?` parameters. */
export interface SqlStatement {
  sql: string;
  params: unknown[];
}

/** The part of a mysql2 connection (callback API) the pipeline uses. */
interface CallbackConnection {
  query(
    sql: string,
    values: unknown[],
    callback: (error: Error | null, result: unknown) => void,
  ): void;
}

/**
 * Runs statements one after the other on the query runner's MySQL/MariaDB connection without
 * waiting for each answer before queueing the next: the driver sends each statement as soon as
 * the previous one has answered, with no trip through the event loop in between (seven short
 * statements: about 1 ms instead of 5 ms on a local server). Every statement runs even when an
 * earlier one failed, so callers group only statements that are harmless after a failure and
 * decide on COMMIT or ROLLBACK once all have answered.
 *
 * Resolves with each statement's result in order, or rejects with the first failure once all
 * have answered. Statements are logged through the data source's logger like any other query.
 */
export async function pipelinedQueries(
  runner: QueryRunner,
  statements: readonly SqlStatement[],
): Promise<unknown[]> {
  const connection = (await runner.connect()) as CallbackConnection;
  const logger = runner.connection.logger;
  const settled = await Promise.allSettled(
    statements.map(
      ({ sql, params }) =>
        new Promise<unknown>((resolve, reject) => {
          logger.logQuery(sql, params, runner);
          connection.query(sql, params, (error, result) =>
            error ? reject(error) : resolve(result),
          );
        }),
    ),
  );
  const failure = settled.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value);
}

import { databaseUnavailability } from '../../src/errors/database-failures';
import { isNodeUnavailable } from '../../src/db/sql-errors';

const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('which database failures a client may retry (one list for the error model and failover)', () => {
  it.each([
    ['a refused connection', coded('ECONNREFUSED'), 'down'],
    ['a Galera node outside the primary component (1047)', coded('ER_UNKNOWN_COM_ERROR'), 'down'],
    ['a read-only node (1290)', coded('ER_OPTION_PREVENTS_STATEMENT'), 'down'],
    ['a conflict that outlasted its retries (1213)', coded('ER_LOCK_DEADLOCK'), 'down'],
    ['a COMMIT a Galera node could not replicate (1180)', coded('ER_ERROR_DURING_COMMIT'), 'down'],
    [
      'a closed connection, by its words',
      new Error("Can't add new command when connection is in closed state"),
      'down',
    ],
    ['a lock wait or causal read given up (1205)', coded('ER_LOCK_WAIT_TIMEOUT'), 'busy'],
    ['a full pool queue', new Error('Queue limit reached.'), 'busy'],
    ['a duplicate key', coded('ER_DUP_ENTRY'), undefined],
    ['a plain bug', new TypeError('x is undefined'), undefined],
  ])('%s', (_what, error, expected) => {
    expect(databaseUnavailability(error)).toBe(expected);
  });

  it('looks through TypeORM (driverError) and wrapping errors (cause)', () => {
    const wrapped = Object.assign(new Error('query failed'), {
      driverError: coded('ER_SERVER_SHUTDOWN'),
    });
    expect(databaseUnavailability(wrapped)).toBe('down');
    expect(databaseUnavailability(new Error('outer', { cause: wrapped }))).toBe('down');
  });

  it('moves away from a node on the same failures the error model answers with 503 for a node', () => {
    for (const code of ['ECONNRESET', 'ER_UNKNOWN_COM_ERROR', 'ER_READ_ONLY_MODE']) {
      expect([code, isNodeUnavailable(coded(code)), databaseUnavailability(coded(code))]).toEqual([
        code,
        true,
        'down',
      ]);
    }
    // A conflict is the request's own trouble, not the node's: no failover for it.
    expect(isNodeUnavailable(coded('ER_LOCK_DEADLOCK'))).toBe(false);
  });
});

/**
 * What a getResults of a durable set cannot go below on this machine: an HTTP round trip to the
 * service (GET /livez: its HTTP stack, Express included, and no database) and one exchange with
 * MariaDB that commits a row (START TRANSACTION; INSERT; COMMIT sent at once, as the service
 * sends its set: one round trip and the log flush). Timed beside the fixed cost, in the same
 * loop, so both see the machine in the same state.
 */
import mysql from 'mysql2/promise';
import { mysqlUri, timed } from './results-bench.config';
import { httpRequest } from './results-bench.requests';
import type { Service } from './results-bench.process';

export interface FixedFloorMs {
  httpMs: number;
  commitMs: number;
}

export interface FixedFloor {
  /** One HTTP round trip and one committed exchange, each timed. */
  run: () => Promise<FixedFloorMs>;
  close: () => Promise<void>;
}

/** A table of this run's own: two runs on a kept tier (BENCH_REUSE) do not share it. */
const TABLE = `bench_commit_probe_${process.pid}`;

export async function openFixedFloor(service: Service, db: string): Promise<FixedFloor> {
  const conn = await mysql.createConnection({ uri: mysqlUri(db), multipleStatements: true });
  await conn.query(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (id INT AUTO_INCREMENT PRIMARY KEY, v INT)`,
  );
  return {
    run: async () => {
      const http = await timed(() => httpRequest({ url: `${service.url}/livez`, method: 'GET' }));
      if (http.value.status !== 200) throw new Error(`GET /livez ${http.value.status}`);
      const commit = await timed(() =>
        conn.query(`START TRANSACTION; INSERT INTO ${TABLE} (v) VALUES (1); COMMIT`),
      );
      return { httpMs: http.ms, commitMs: commit.ms };
    },
    close: async () => {
      try {
        await conn.query(`DROP TABLE IF EXISTS ${TABLE}`);
      } finally {
        await conn.end();
      }
    },
  };
}

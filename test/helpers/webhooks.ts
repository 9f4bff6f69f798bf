import net, { type AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';

/**
 * Scaffolding of the webhook suites: a loopback socket that counts who connects (what the
 * outbound guard protects), and events, deliveries and attempts written as the delivery engine
 * writes them, so the operations that read them are tested on rows of known content.
 */

export interface CountingListener {
  port: number;
  connections: () => number;
  close: () => Promise<void>;
}

/** A TCP listener on 127.0.0.1 that closes every connection and counts them. */
export async function countingListener(): Promise<CountingListener> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface StoredAttempt {
  attemptedMs: number;
  outcome: 'delivered' | 'retry' | 'failed';
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

async function lastId(dataSource: DataSource, table: string): Promise<number> {
  const [row] = (await dataSource.query(`SELECT MAX(id) AS id FROM ${table}`)) as {
    id: unknown;
  }[];
  return Number(row?.id);
}

/** An event as the dispatcher stores it; returns its row id. */
export async function insertEvent(
  dataSource: DataSource,
  messageId: string,
  type: string,
  createdMs: number,
  data: Record<string, unknown> = {},
): Promise<number> {
  const body = JSON.stringify({ type, timestamp: new Date(createdMs).toISOString(), data });
  await dataSource.query(
    'INSERT INTO webhook_events (message_id, type, body, created_ms) VALUES (?, ?, ?, ?)',
    [messageId, type, body, createdMs],
  );
  return lastId(dataSource, 'webhook_events');
}

/** A delivery of an event to an endpoint, with its attempts; returns its row id. */
export async function insertDelivery(
  dataSource: DataSource,
  fields: {
    eventId: number;
    endpointId: number;
    status: 'pending' | 'delivered' | 'failed';
    createdMs: number;
    dueMs: number;
    finishedMs: number | null;
    attempts: readonly StoredAttempt[];
  },
): Promise<number> {
  await dataSource.query(
    `INSERT INTO webhook_deliveries
       (event_id, endpoint_id, status, attempts, due_ms, lease_id, lease_until_ms, created_ms,
        finished_ms)
     VALUES (?, ?, ?, ?, ?, NULL, 0, ?, ?)`,
    [
      fields.eventId,
      fields.endpointId,
      fields.status,
      fields.attempts.length,
      fields.dueMs,
      fields.createdMs,
      fields.finishedMs,
    ],
  );
  const id = await lastId(dataSource, 'webhook_deliveries');
  for (const attempt of fields.attempts) {
    await dataSource.query(
      `INSERT INTO webhook_attempts
         (delivery_id, attempted_ms, outcome, status_code, duration_ms, error)
       VALUES (?, ?, ?, ?, ?, ?)`,
      [
        id,
        attempt.attemptedMs,
        attempt.outcome,
        attempt.statusCode,
        attempt.durationMs,
        attempt.error,
      ],
    );
  }
  return id;
}

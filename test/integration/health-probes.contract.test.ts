import net from 'node:net';
import type { DataSource } from 'typeorm';
import type { RestOperation } from '../../src/api/rest/rest-operation';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';

interface Answer {
  status: number;
  head: string;
  body: unknown;
}

/**
 * One keep-alive connection on which requests are written as the test decides (pipelined when
 * an answer is still outstanding) and answers are read in order.
 */
class KeepAliveConnection {
  private received = Buffer.alloc(0);
  private readonly waiting: (() => void)[] = [];
  private closed = false;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.waiting.splice(0).forEach((wake) => wake());
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiting.splice(0).forEach((wake) => wake());
    });
  }

  static open(url: string): Promise<KeepAliveConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.off('error', reject);
        resolve(new KeepAliveConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  send(path: string): void {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`);
  }

  /** The next answer on the connection (the server answers a connection's requests in order). */
  async next(): Promise<Answer> {
    for (;;) {
      const end = this.received.indexOf('\r\n\r\n');
      if (end >= 0) {
        const head = this.received.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
        if (Number.isNaN(length)) throw new Error(`no Content-Length in:\n${head}`);
        if (this.received.length >= end + 4 + length) {
          const body = this.received.subarray(end + 4, end + 4 + length).toString('utf8');
          this.received = this.received.subarray(end + 4 + length);
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
          return { status, head, body: JSON.parse(body) as unknown };
        }
      }
      if (this.closed) throw new Error('the connection closed before a whole answer came');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

describe('health probes', () => {
  let dataSource: DataSource;
  let closeDb: () => Promise<void>;
  let app: TestApp | undefined;
  let apiKey: string;

  // A request the test holds in flight: it has begun once `started` resolves, and finishes
  // (with a query, so the pool must still be open) once the test calls `release`.
  let started: Promise<void>;
  let markStarted: () => void;
  let release: () => void;
  const HELD: RestOperation = {
    name: 'held',
    methods: ['GET'],
    handler: async (ctx) => {
      markStarted();
      await new Promise<void>((resolve) => (release = resolve));
      const [row] = (await ctx.db.read.query('SELECT 1 AS one')) as { one: number }[];
      return { finished: true, one: Number(row.one) };
    },
  };

  beforeAll(async () => {
    ({ dataSource, close: closeDb } = await openTestDatabase('health_probes'));
    apiKey = (await createTestApiKey(dataSource)).secret;
    started = new Promise((resolve) => (markStarted = resolve));
  });

  afterAll(async () => {
    await app?.close();
    await closeDb();
  });

  it('answers /livez, and /readyz while the database answers', async () => {
    app = await startTestApp(dataSource, {}, { operations: [HELD] });
    const live = await app.get('/livez');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await app.get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', database: 'up' });
    expect((await app.get('/healthz')).status).toBe(200);
    // Answered probes, every few seconds from an orchestrator, stay out of the info log.
    const probes = app.logs
      .records()
      .filter((record) =>
        /^\/(livez|readyz|healthz)$/.test(String((record.req as { url?: string })?.url)),
      )
      .map((record) => [(record.req as { url: string }).url, record.level]);
    expect(probes).toEqual([
      ['/livez', 'debug'],
      ['/readyz', 'debug'],
      ['/healthz', 'debug'],
    ]);
  });

  it('answers /readyz with 503 from the start of the graceful shutdown while an in-flight request finishes', async () => {
    const running = app!;
    const connection = await KeepAliveConnection.open(running.url);
    try {
      connection.send(`/held?apiKey=${apiKey}`);
      await started;
      const closing = running.close();
      // The request reaches the server on the open connection while the held one is in flight.
      const received = new Promise<void>((resolve) => {
        const onRequest = (req: { url?: string }) => {
          if (req.url !== '/readyz') return;
          running.running.server.off('request', onRequest);
          resolve();
        };
        running.running.server.on('request', onRequest);
      });
      connection.send('/readyz');
      await received;
      release();

      const held = await connection.next();
      expect(held.status).toBe(200);
      expect(held.body).toEqual({ finished: true, one: 1 });
      const ready = await connection.next();
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'shutting down' });

      await closing;
      await expect(fetch(`${running.url}/readyz`)).rejects.toThrow();
      expect(dataSource.isInitialized).toBe(false);
    } finally {
      connection.close();
    }
  });

  it('answers /readyz with 503 when the database is gone, and /livez still with 200', async () => {
    const { dataSource: other, close } = await openTestDatabase('health_probes_down');
    const down = await startTestApp(other);
    try {
      await other.destroy();
      const ready = await down.get('/readyz');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', database: 'down' });
      // A failing probe is still an error line.
      const failed = down.logs
        .records()
        .filter((record) => (record.req as { url?: string } | undefined)?.url === '/readyz')
        .map((record) => record.level);
      expect(failed).toEqual(['error']);
      const live = await down.get('/livez');
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: 'ok' });
    } finally {
      await down.close();
      await close();
    }
  });
});

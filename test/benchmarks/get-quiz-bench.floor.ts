/**
 * The floor of getQuiz: what the contract asks of any implementation and nothing more, in bare
 * Express + mysql2. The API key is found by its hash in the same database (as the service stores
 * it) and must be unrevoked and bound to the caller's host; the request is counted against the
 * key's rate limit in the same database (contract §11: every instance shares the count), by one
 * upsert; then the quiz with its author, its tags and its questions are read and sent as JSON.
 * With `counting: false` the same handler skips the upsert: the reads any implementation does
 * once counting no longer writes per request (the second floor).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import mysql from 'mysql2/promise';

/** The service's budget in the benchmark (startService): counted, never spent. */
const RATE_LIMIT_POINTS = 1_000_000_000;
const WINDOW_MS = 60_000;

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The contract's host binding: Origin (else Referer) host, else the client IP; localhost is loopback. */
function hostMatches(bound: string, req: Request): boolean {
  const origin = req.get('origin') ?? req.get('referer');
  if (origin) {
    const host = new URL(origin).hostname;
    return host === bound || host.endsWith(`.${bound}`);
  }
  const ip = req.socket.remoteAddress ?? '';
  return ip === bound || (bound === 'localhost' && LOOPBACK.has(ip));
}

/** A quiz as the floors read it: its row (with its author's names), tags and questions. */
export interface QuizRows {
  row: mysql.RowDataPacket;
  tags: string[];
  questions: mysql.RowDataPacket[];
}

/** The reads both floors make, REST (here) and GraphQL (get-quiz-bench.graphql-floor). */
export interface QuizReads {
  /** The presented key's id when it is known, unrevoked and bound to the caller's host. */
  keyOf: (presented: string, req: Request) => Promise<number | undefined>;
  /** The quiz, its author, tags and questions; undefined when there is no such quiz. */
  quiz: (id: number) => Promise<QuizRows | undefined>;
}

export function quizReads(pool: mysql.Pool): QuizReads {
  return {
    keyOf: async (presented, req) => {
      const keyHash = createHash('sha256').update(presented, 'utf8').digest('hex');
      const [[key]] = await pool.query<mysql.RowDataPacket[]>(
        'SELECT id, host, revoked_at FROM api_keys WHERE key_hash = ?',
        [keyHash],
      );
      if (!key || key.revoked_at !== null || !hostMatches(String(key.host), req)) return undefined;
      return Number(key.id);
    },
    quiz: async (id) => {
      const [[quiz], [tags], [questions]] = await Promise.all([
        pool.query<mysql.RowDataPacket[]>(
          `SELECT q.*, u.first_name, u.last_name, u.picture_url FROM quizzes q JOIN users u ON u.id = q.author_id WHERE q.id = ?`,
          [id],
        ),
        pool.query<mysql.RowDataPacket[]>(
          'SELECT tag FROM quiz_tags WHERE quiz_id = ? ORDER BY position',
          [id],
        ),
        pool.query<mysql.RowDataPacket[]>(
          'SELECT * FROM questions WHERE quiz_id = ? ORDER BY position',
          [id],
        ),
      ]);
      const row = quiz[0];
      return row ? { row, tags: tags.map((t) => String(t.tag)), questions } : undefined;
    },
  };
}

export async function startFloor(
  uri: string,
  poolSize: number,
  { counting = true }: { counting?: boolean } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const pool = mysql.createPool({ uri, connectionLimit: poolSize, timezone: 'Z' });
  const reads = quizReads(pool);
  const app = express();
  /**
   * Counts the request: one statement, the window's count read back through LAST_INSERT_ID (0
   * when the row was just inserted).
   */
  const charge = async (keyId: number): Promise<boolean> => {
    const now = Date.now();
    const [charged] = await pool.query<mysql.ResultSetHeader>(
      `INSERT INTO rate_limits (\`key\`, points, expire) VALUES (?, 1, ?)
       ON DUPLICATE KEY UPDATE points = LAST_INSERT_ID(IF(expire <= ?, 1, points + 1)),
                               expire = IF(expire <= ?, ?, expire)`,
      [`floor:${keyId}`, now + WINDOW_MS, now, now, now + WINDOW_MS],
    );
    return (charged.insertId || 1) <= RATE_LIMIT_POINTS;
  };
  const getQuiz = async (req: Request, res: Response): Promise<void> => {
    const presented =
      req.get('x-api-key') ?? (typeof req.query.apiKey === 'string' ? req.query.apiKey : '');
    if (!presented) {
      res.status(400).json({ type: 'MissingParameterException', parameterName: 'apiKey' });
      return;
    }
    const keyId = await reads.keyOf(presented, req);
    if (keyId === undefined) {
      res.status(401).json({ type: 'UnauthorizedOperationException' });
      return;
    }
    // The contract's rate limit, counted in the database every instance shares (contract §11).
    if (counting && !(await charge(keyId))) {
      res.status(429).json({ type: 'TooManyRequestsException' });
      return;
    }
    const found = await reads.quiz(Number(req.query.quizId));
    if (!found) {
      res.status(404).json({ type: 'BadParameterException', parameterName: 'quizId' });
      return;
    }
    // No access token here: a private quiz is refused, as the contract requires.
    if (found.row.visibility !== 'public') {
      res.status(401).json({ type: 'UnauthorizedOperationException' });
      return;
    }
    res.json({ ...found.row, tags: found.tags, questions: found.questions });
  };
  // Handlers still waiting for the pool when the load stops (their client gone): close waits for them.
  let inFlight = 0;
  app.get('/getQuiz', async (req, res) => {
    inFlight += 1;
    try {
      await getQuiz(req, res);
    } finally {
      inFlight -= 1;
    }
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}

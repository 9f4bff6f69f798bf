import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedMs: number;
}

/** What a path answers, request after request (the last answer repeats). */
export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
}

/**
 * A webhook receiver on loopback (a real node http server): it records every request and
 * answers each path as scripted, 200 by default.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, ScriptedAnswer[]>();
  /** Paths that answer 500 to the first request of each webhook-id, 200 to the next. */
  private readonly failingFirst = new Set<string>();
  private readonly seenIds = new Set<string>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers[name] = value;
      }
      this.received.push({
        path,
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedMs: Date.now(),
      });
      const script = this.scripts.get(path) ?? [];
      let answer = (script.length > 1 ? script.shift() : script[0]) ?? { status: 200 };
      if (this.failingFirst.has(path)) {
        const key = `${path} ${headers['webhook-id']}`;
        answer = { status: this.seenIds.has(key) ? 200 : 500 };
        this.seenIds.add(key);
      }
      res.writeHead(answer.status, answer.headers ?? {});
      res.end('ok');
    });
  });

  /** Answers `path` with these statuses in turn, the last one from then on. */
  script(path: string, answers: ScriptedAnswer[]): void {
    this.scripts.set(path, [...answers]);
  }

  /** Answers 500 to the first request of each message at `path`, 200 to the others. */
  failFirstAttempts(path: string): void {
    this.failingFirst.add(path);
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  /** Waits until `path` got `count` requests (or the time is up) and returns them. */
  async waitFor(path: string, count: number, timeoutMs = 15_000): Promise<ReceivedWebhook[]> {
    const until = Date.now() + timeoutMs;
    while (this.at(path).length < count && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return this.at(path);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

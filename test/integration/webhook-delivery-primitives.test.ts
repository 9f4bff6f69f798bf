import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../src/config/config';
import {
  checkOutboundUrl,
  type CheckedUrl,
  type HostResolver,
  type OutboundPolicy,
} from '../../src/security/outbound-address';
import {
  retryAfterMs,
  sendWebhook,
  WEBHOOK_RESPONSE_LIMIT_BYTES,
} from '../../src/services/webhooks/webhook-sender';
import {
  newWebhookMessageId,
  newWebhookSecret,
  signWebhookMessage,
  type WebhookHeaders,
} from '../../src/services/webhooks/webhook-signing';

/**
 * The webhook primitives (contract.md §16) against a real HTTP receiver on loopback: signatures
 * checked by the Standard Webhooks library as a receiver would, and the sender's outcomes (the
 * secret box and the address guard: webhook-outbound-guard.test.ts). No database is involved:
 * these are the pieces the outbox will use.
 */

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
const silentSockets: Socket[] = [];
let receiver: http.Server;
let port: number;

function startReceiver(): Promise<void> {
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString() });
      switch (path) {
        case '/ok':
          response.writeHead(204).end();
          return;
        case '/fail':
          response.writeHead(500).end('database down');
          return;
        case '/busy':
          response.writeHead(429, { 'retry-after': '7' }).end();
          return;
        case '/busy-until':
          response
            .writeHead(503, { 'retry-after': new Date(Date.now() + 30_000).toUTCString() })
            .end();
          return;
        case '/gone':
          response.writeHead(410).end();
          return;
        case '/moved':
          response.writeHead(302, { location: `http://127.0.0.1:${port}/target` }).end();
          return;
        case '/big': {
          response.writeHead(200, { 'content-type': 'text/plain' });
          const block = Buffer.alloc(64 * 1024, 'x');
          for (let i = 0; i < 16; i += 1) response.write(block);
          response.end();
          return;
        }
        case '/silent':
          silentSockets.push(request.socket);
          return;
        default:
          response.writeHead(200).end('ok');
      }
    });
  });
  return new Promise((resolve) => {
    receiver.listen(0, '127.0.0.1', () => {
      port = (receiver.address() as AddressInfo).port;
      resolve();
    });
  });
}

beforeAll(startReceiver);

afterAll(async () => {
  silentSockets.forEach((socket) => socket.destroy());
  await new Promise((resolve) => receiver.close(resolve));
});

beforeEach(() => {
  received.length = 0;
});

/** The service's own configuration: loopback and a test name allowed, as tests run it. */
const testConfig = loadConfig({
  NODE_ENV: 'test',
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1, Webhook.TEST',
});
/** `webhook.test` is a reserved name no DNS answers: the test's resolver says where it is. */
const testResolver: HostResolver = (hostname) =>
  hostname === 'webhook.test'
    ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
    : Promise.reject(new Error(`no such host ${hostname}`));
const allowing: OutboundPolicy = {
  allowedHosts: testConfig.webhooks.allowedHosts,
  resolve: testResolver,
};

const json = (value: unknown) => JSON.stringify(value);

async function deliver(
  path: string,
  headers: WebhookHeaders,
  body: string,
  timeoutMs?: number,
): Promise<Awaited<ReturnType<typeof sendWebhook>>> {
  const target = await checkOutboundUrl('test', `http://127.0.0.1:${port}${path}`, allowing);
  return sendWebhook(target, headers, body, timeoutMs === undefined ? {} : { timeoutMs });
}

const bodyOf = (path: string) => received.find((request) => request.path === path);

describe('signing: receivers verify with the standardwebhooks library', () => {
  const payload = json({
    type: 'session.created',
    timestamp: '2026-11-27T21:00:00.000Z',
    data: { sessionId: 41 },
  });

  it('makes whsec_ secrets of 32 random bytes, each new', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('a delivered message verifies; a tampered body does not', async () => {
    const secret = newWebhookSecret();
    const id = newWebhookMessageId();
    const headers = signWebhookMessage({ current: secret }, id, new Date(), payload);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

    const outcome = await deliver('/ok', headers, payload);
    expect(outcome).toMatchObject({ outcome: 'delivered', status: 204 });
    const got = bodyOf('/ok') as Received;
    expect(got.body).toBe(payload);
    expect(got.headers['webhook-id']).toBe(id);
    expect(got.headers['content-type']).toBe('application/json');
    const asReceived = got.headers as Record<string, string>;
    expect(new Webhook(secret).verify(got.body, asReceived)).toEqual(JSON.parse(payload));

    const tampered = got.body.replace('41', '42');
    expect(() => new Webhook(secret).verify(tampered, asReceived)).toThrow(
      'No matching signature found',
    );
    expect(() => new Webhook(newWebhookSecret()).verify(got.body, asReceived)).toThrow(
      'No matching signature found',
    );
  });

  it('a timestamp older than 5 minutes fails verification; 4 minutes passes', async () => {
    const secret = newWebhookSecret();
    const old = signWebhookMessage(
      { current: secret },
      newWebhookMessageId(),
      new Date(Date.now() - 6 * 60_000),
      payload,
    );
    await deliver('/ok', old, payload);
    const got = bodyOf('/ok') as Received;
    expect(() =>
      new Webhook(secret).verify(got.body, got.headers as Record<string, string>),
    ).toThrow('Message timestamp too old');

    const recent = signWebhookMessage(
      { current: secret },
      newWebhookMessageId(),
      new Date(Date.now() - 4 * 60_000),
      payload,
    );
    expect(new Webhook(secret).verify(payload, { ...recent })).toEqual(JSON.parse(payload));
  });

  it('during a rotation, a receiver holding either the old or the new secret verifies', async () => {
    const previous = newWebhookSecret();
    const current = newWebhookSecret();
    const headers = signWebhookMessage(
      { current, previous },
      newWebhookMessageId(),
      new Date(),
      payload,
    );
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    await deliver('/ok', headers, payload);
    const got = bodyOf('/ok') as Received;
    const asReceived = got.headers as Record<string, string>;
    expect(new Webhook(previous).verify(got.body, asReceived)).toEqual(JSON.parse(payload));
    expect(new Webhook(current).verify(got.body, asReceived)).toEqual(JSON.parse(payload));
    expect(() => new Webhook(newWebhookSecret()).verify(got.body, asReceived)).toThrow(
      'No matching signature found',
    );
  });
});

describe('sender: one attempt and its outcome', () => {
  const payload = json({ type: 'quiz.created', timestamp: '2026-11-27T21:00:00Z', data: {} });
  const secret = newWebhookSecret();
  const signed = () =>
    signWebhookMessage({ current: secret }, newWebhookMessageId(), new Date(), payload);

  it('connects to the checked address, keeping the URL host in Host (no second resolution)', async () => {
    const target = await checkOutboundUrl('test', `http://webhook.test:${port}/ok`, allowing);
    expect(target.address).toBe('127.0.0.1');
    const outcome = await sendWebhook(target, signed(), payload);
    expect(outcome).toMatchObject({ outcome: 'delivered', status: 204 });
    expect(bodyOf('/ok')?.headers.host).toBe(`webhook.test:${port}`);
  });

  it('over https: the URL host is verified and sent as SNI and Host, the checked address dialled', async () => {
    const tls = path.join(__dirname, '../fixtures/webhook-tls');
    // A self-signed certificate for webhook.test, made for this test (valid until 2126).
    const cert = readFileSync(path.join(tls, 'webhook-test.cert.pem'));
    const key = readFileSync(path.join(tls, 'webhook-test.key.pem'));
    const seen: { servername: string | false | null; host?: string; body: string }[] = [];
    const server = https.createServer({ cert, key }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push({
          servername: (request.socket as TLSSocket).servername,
          host: request.headers.host,
          body: Buffer.concat(chunks).toString(),
        });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const tlsPort = (server.address() as AddressInfo).port;
    try {
      const target = await checkOutboundUrl('test', `https://webhook.test:${tlsPort}/in`, allowing);
      const outcome = await sendWebhook(target, signed(), payload, { ca: cert });
      expect(outcome).toMatchObject({ outcome: 'delivered', status: 200 });
      expect(seen).toEqual([
        { servername: 'webhook.test', host: `webhook.test:${tlsPort}`, body: payload },
      ]);
      // Certificates are verified: not trusting the test's own, the attempt is a network error.
      const untrusted = await sendWebhook(target, signed(), payload);
      expect(untrusted).toMatchObject({ outcome: 'retry' });
      expect((untrusted as { error: string }).error).toMatch(/^network error: .*SELF_SIGNED/);
      expect(seen).toHaveLength(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('2xx is delivered, with its status and duration', async () => {
    const outcome = await deliver('/ok', signed(), payload);
    expect(outcome.outcome).toBe('delivered');
    expect(outcome.status).toBe(204);
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
    expect(outcome.durationMs).toBeLessThan(5000);
  });

  it('500 is retried; 429 with Retry-After: 7 asks for 7 s; an HTTP date is read too', async () => {
    expect(await deliver('/fail', signed(), payload)).toMatchObject({
      outcome: 'retry',
      status: 500,
      error: 'HTTP 500',
    });
    const failed = await deliver('/fail', signed(), payload);
    expect(failed).not.toHaveProperty('retryAfterMs');
    expect(await deliver('/busy', signed(), payload)).toMatchObject({
      outcome: 'retry',
      status: 429,
      retryAfterMs: 7000,
    });
    const until = await deliver('/busy-until', signed(), payload);
    expect(until).toMatchObject({ outcome: 'retry', status: 503 });
    const delay = (until as { retryAfterMs: number }).retryAfterMs;
    expect(delay).toBeGreaterThan(27_000);
    expect(delay).toBeLessThanOrEqual(30_000);
  });

  it('a 302 fails and is not followed: its target receives nothing', async () => {
    const outcome = await deliver('/moved', signed(), payload);
    expect(outcome).toMatchObject({
      outcome: 'failed',
      status: 302,
      error: 'HTTP 302: redirects are not followed',
    });
    expect(received.map((request) => request.path)).toEqual(['/moved']);
    expect(await deliver('/gone', signed(), payload)).toMatchObject({
      outcome: 'failed',
      status: 410,
    });
  });

  it('reads a 1 MB response to 64 KB only, without error', async () => {
    const outcome = await deliver('/big', signed(), payload);
    expect(outcome).toMatchObject({
      outcome: 'delivered',
      status: 200,
      responseBytes: WEBHOOK_RESPONSE_LIMIT_BYTES,
      responseTruncated: true,
    });
    expect(WEBHOOK_RESPONSE_LIMIT_BYTES).toBe(64 * 1024);
  });

  it('a receiver that never answers times out, to be retried', async () => {
    const outcome = await deliver('/silent', signed(), payload, 300);
    expect(outcome).toMatchObject({ outcome: 'retry', error: 'timeout after 300 ms' });
    expect(outcome).not.toHaveProperty('status');
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(3000);
    expect(received.map((request) => request.path)).toEqual(['/silent']);
  });

  it('a refused connection is retried, and no outcome holds the secret or the payload', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const target: CheckedUrl = await checkOutboundUrl(
      'test',
      `http://127.0.0.1:${closedPort}/`,
      allowing,
    );
    const outcome = await sendWebhook(target, signed(), payload);
    expect(outcome).toMatchObject({ outcome: 'retry' });
    expect((outcome as { error: string }).error).toMatch(/^network error: ECONNREFUSED/);

    const all = [outcome, await deliver('/fail', signed(), payload)];
    expect(json(all)).not.toContain(secret.slice('whsec_'.length));
    expect(json(all)).not.toContain('quiz.created');
  });

  it('reads Retry-After as seconds or an HTTP date, and ignores what it cannot read', () => {
    const now = Date.parse('2026-11-27T21:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Fri, 27 Nov 2026 21:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Fri, 27 Nov 2026 20:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { CheckedUrl } from '../../security/outbound-address';
import type { WebhookHeaders } from './webhook-signing';

/**
 * One delivery attempt of a signed message (contract.md §16): a POST to the address the guard
 * checked, and its outcome in the three cases the retry schedule tells apart.
 */

/** How long an attempt may take, connection to last byte read (contract.md §16). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Most of a response body read: receivers are asked for a status, not for content. */
export const WEBHOOK_RESPONSE_LIMIT_BYTES = 64 * 1024;

const ERROR_TEXT_LIMIT = 200;
const USER_AGENT = 'quiz-results-service-webhooks/1';

interface Measured {
  /** Milliseconds from the request's start to its outcome. */
  durationMs: number;
  /** The response's status, when one came. */
  status?: number;
  /** Bytes of the response body read (at most WEBHOOK_RESPONSE_LIMIT_BYTES). */
  responseBytes: number;
  /** Whether the body went on beyond what was read (the connection was then closed). */
  responseTruncated: boolean;
}

/**
 * `delivered`: a 2xx. `retry`: worth another attempt later (timeout, network error, 5xx, 429),
 * after `retryAfterMs` when the receiver said so in Retry-After. `failed`: another attempt would
 * get the same answer (other statuses, and redirects, which are never followed). `error` is short
 * and names neither the secret nor the payload.
 */
export type WebhookAttemptOutcome =
  | (Measured & { outcome: 'delivered'; status: number })
  | (Measured & { outcome: 'retry'; retryAfterMs?: number; error: string })
  | (Measured & { outcome: 'failed'; status: number; error: string });

export interface WebhookSendOptions {
  /** Defaults to WEBHOOK_TIMEOUT_MS; tests shorten it. */
  timeoutMs?: number;
  /**
   * Certificates trusted for https instead of Node's public CAs (a receiver behind a private CA,
   * a test's self-signed receiver). Certificates are always verified.
   */
  ca?: string | Buffer;
}

/**
 * Milliseconds a Retry-After value asks to wait: delay-seconds or an HTTP date (RFC 9110 §10.2.3);
 * undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Hands the connection the checked address whatever name it asks for: the socket goes where the
 * guard looked, while the URL's host still names the Host header and the TLS server name.
 */
function pinnedLookup(target: CheckedUrl): LookupFunction {
  return (_hostname, options, callback) => {
    const { address, family } = target;
    // Node asks for a list when it may try several addresses (autoSelectFamily).
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

const short = (text: string) =>
  text.length > ERROR_TEXT_LIMIT ? `${text.slice(0, ERROR_TEXT_LIMIT - 1)}…` : text;

function classify(status: number, retryAfter: string | undefined, measured: Measured) {
  if (status >= 200 && status < 300) {
    return { outcome: 'delivered' as const, ...measured, status };
  }
  if (status === 429 || status >= 500) {
    const delay = retryAfterMs(retryAfter);
    return {
      outcome: 'retry' as const,
      ...measured,
      status,
      ...(delay === undefined ? {} : { retryAfterMs: delay }),
      error: `HTTP ${status}`,
    };
  }
  const error =
    status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
  return { outcome: 'failed' as const, ...measured, status, error };
}

/**
 * POSTs `body` (JSON, exactly the bytes that were signed) with the message's headers to a URL
 * checked by checkOutboundUrl, connecting to the checked address. Never throws: every failure is
 * an outcome. No connection is reused (each attempt dials the checked address afresh).
 */
export function sendWebhook(
  target: CheckedUrl,
  headers: WebhookHeaders,
  body: string,
  options: WebhookSendOptions = {},
): Promise<WebhookAttemptOutcome> {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const started = performance.now();
  const payload = Buffer.from(body, 'utf8');
  const secure = target.url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    let status: number | undefined;
    let retryAfter: string | undefined;
    let responseBytes = 0;
    let responseTruncated = false;
    const measured = (): Measured => ({
      durationMs: Math.round(performance.now() - started),
      ...(status === undefined ? {} : { status }),
      responseBytes,
      responseTruncated,
    });
    const finish = (outcome: WebhookAttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(outcome);
    };
    const requestOptions: https.RequestOptions = {
      method: 'POST',
      protocol: target.url.protocol,
      host: target.hostname,
      port: target.url.port === '' ? undefined : Number(target.url.port),
      path: `${target.url.pathname}${target.url.search}`,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(payload.length),
        'user-agent': USER_AGENT,
      },
      lookup: pinnedLookup(target),
      // A pooled socket could have been dialled to another address for the same name.
      agent: false,
      // SNI names the host, never the address (there is no SNI for an address).
      ...(secure && target.hostname !== target.address ? { servername: target.hostname } : {}),
      ...(options.ca === undefined ? {} : { ca: options.ca }),
      rejectUnauthorized: true,
    };
    const request = (secure ? https : http).request(requestOptions, (response) => {
      status = response.statusCode ?? 0;
      retryAfter = response.headers['retry-after'];
      const done = () => finish(classify(status as number, retryAfter, measured()));
      response.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = WEBHOOK_RESPONSE_LIMIT_BYTES - responseBytes;
        responseBytes += Math.min(room, chunk.length);
        if (chunk.length >= room) {
          // Enough read: the rest is not wanted, and closing is cheaper than draining it.
          responseTruncated = chunk.length > room || !response.complete;
          done();
        }
      });
      response.on('end', done);
      response.on('error', () => done());
    });
    // Once a status came, it is the receiver's answer: a body cut short does not undo it.
    const timer = setTimeout(() => {
      if (status !== undefined) finish(classify(status, retryAfter, measured()));
      else finish({ outcome: 'retry', ...measured(), error: `timeout after ${timeoutMs} ms` });
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const text = error.code ? `${error.code}: ${error.message}` : error.message;
      if (status !== undefined) finish(classify(status, retryAfter, measured()));
      else finish({ outcome: 'retry', ...measured(), error: short(`network error: ${text}`) });
    });
    request.end(payload);
  });
}

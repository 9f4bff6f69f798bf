import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Signing in the Standard Webhooks scheme (contract.md §16) through its maintained library, so
 * what receivers verify with the same library is exactly what we sign.
 */

/** The prefix the scheme gives secrets; its libraries strip it before decoding the key. */
const SECRET_PREFIX = 'whsec_';

/** The headers of one signed message, named as the scheme names them. */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The secrets an endpoint signs with: the current one and, while a rotation lasts, the previous
 * one, so receivers that still hold the old secret keep verifying until they switch.
 */
export interface SigningSecrets {
  current: string;
  previous?: string;
}

/** A new endpoint secret: `whsec_` and the standard base64 of 32 random bytes (256 bits). */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * A new message id. It names the event, not the attempt: every retry and redelivery of one event
 * carries the same id, so receivers can drop duplicates.
 */
export function newWebhookMessageId(): string {
  return `msg_${randomUUID()}`;
}

/**
 * The headers of a message: its id, its time in whole seconds, and one `v1,` signature per secret,
 * space-separated (the scheme lets a receiver accept any of them). `payload` must be the exact
 * bytes sent: the signature covers `id.timestamp.payload`.
 */
export function signWebhookMessage(
  secrets: SigningSecrets,
  messageId: string,
  timestamp: Date,
  payload: string,
): WebhookHeaders {
  const keys =
    secrets.previous === undefined ? [secrets.current] : [secrets.current, secrets.previous];
  const signatures = keys.map((secret) => new Webhook(secret).sign(messageId, timestamp, payload));
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}

import type { Id } from './types';
import type { WireSchema } from './wire.types';

/**
 * Webhooks (contract.md §16): a user's endpoints and their deliveries, as the service sends them
 * (datetimes `YYYY-MM-DD hh:mm:ss` UTC text, as parseWireDate reads them).
 */

/** An event type an endpoint may receive. */
export type WebhookEventType = WireSchema<'WebhookInput'>['events'] extends
  readonly (infer T)[] | undefined
  ? T
  : never;

/** A webhook endpoint; `secret` only in the answers of addWebhook and rotateWebhookSecret. */
export type Webhook = WireSchema<'Webhook'>;
export type WebhookList = WireSchema<'WebhookList'>;
export type WebhookDelivery = WireSchema<'WebhookDelivery'>;
export type WebhookAttempt = WireSchema<'WebhookAttempt'>;
export type WebhookDeliveryList = WireSchema<'WebhookDeliveryList'>;

export interface AddWebhookParams {
  webhook: {
    /** https (http only for hosts the operator allows); public addresses only. */
    url: string;
    /** Every event type when absent. */
    events?: readonly WebhookEventType[];
  };
}

export interface WebhookParams {
  webhookId: Id;
}

export interface GetWebhookDeliveriesParams extends WebhookParams {
  /** 1 to 200 (50 by default). */
  limit?: number;
}

export interface RedeliverWebhookEventParams extends WebhookParams {
  /** The event's message id (`msg_…`). */
  eventId: string;
}

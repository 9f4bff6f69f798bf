import { LessThanOrEqual } from 'typeorm';
import type { Database } from './database';
import { WebhookDelivery, WebhookEndpoint } from './entities';

/**
 * Webhook endpoints as stored (contract.md §16). The signing secret is sealed by the caller with
 * the endpoint's id as context, so a row is written first and its sealed secret next, in one
 * transaction: no row is ever visible without its secret.
 */

/** The columns a new endpoint is written with, its secret sealed by `seal(id)`. */
export interface NewWebhookEndpoint {
  ownerId: number;
  url: string;
  events: string;
}

export function insertWebhookEndpoint(
  db: Database,
  fields: NewWebhookEndpoint,
  seal: (id: number) => string,
): Promise<WebhookEndpoint> {
  return db.exclusive(() =>
    db.write.transaction(async (manager) => {
      const endpoints = manager.getRepository(WebhookEndpoint);
      const saved = await endpoints.save(endpoints.create({ ...fields, secretSealed: '' }));
      saved.secretSealed = seal(saved.id);
      await endpoints.update({ id: saved.id }, { secretSealed: saved.secretSealed });
      return saved;
    }),
  );
}

/** The endpoints of an owner, oldest first. */
export function webhookEndpointsOf(db: Database, ownerId: number): Promise<WebhookEndpoint[]> {
  return db.write.getRepository(WebhookEndpoint).find({ where: { ownerId }, order: { id: 'ASC' } });
}

/** How many endpoints an owner has. */
export function countWebhookEndpointsOf(db: Database, ownerId: number): Promise<number> {
  return db.write.getRepository(WebhookEndpoint).countBy({ ownerId });
}

/** How many endpoints an owner has of ids up to `id` (those made before it, and it). */
export function countWebhookEndpointsUpTo(
  db: Database,
  ownerId: number,
  id: number,
): Promise<number> {
  return db.write.getRepository(WebhookEndpoint).countBy({ ownerId, id: LessThanOrEqual(id) });
}

/** The endpoint of an id, or null. */
export function webhookEndpointById(db: Database, id: number): Promise<WebhookEndpoint | null> {
  return db.write.getRepository(WebhookEndpoint).findOneBy({ id });
}

/** Deletes an endpoint; its deliveries and their attempts go with it (foreign keys). */
export async function deleteWebhookEndpoint(db: Database, id: number): Promise<void> {
  await db.exclusive(() => db.write.getRepository(WebhookEndpoint).delete({ id }));
}

/** Writes back the changed columns of an endpoint (a rotation, a disabling, a re-enabling). */
export async function updateWebhookEndpoint(
  db: Database,
  id: number,
  changes: Partial<
    Pick<
      WebhookEndpoint,
      | 'secretSealed'
      | 'previousSecretSealed'
      | 'previousSecretUntil'
      | 'failingSince'
      | 'disabledAt'
      | 'disabledReason'
    >
  >,
): Promise<void> {
  await db.exclusive(() => db.write.getRepository(WebhookEndpoint).update({ id }, changes));
}

/**
 * A new pending delivery of an event already owed to an endpoint, due at `nowMs` (a redelivery:
 * the event, hence its webhook-id, is the same). Returns its id.
 */
export function insertWebhookRedelivery(
  db: Database,
  eventId: number,
  endpointId: number,
  nowMs: number,
): Promise<number> {
  return db.exclusive(async () => {
    const deliveries = db.write.getRepository(WebhookDelivery);
    const saved = await deliveries.save(
      deliveries.create({
        eventId,
        endpointId,
        status: 'pending',
        attempts: 0,
        dueMs: nowMs,
        leaseId: null,
        leaseUntilMs: 0,
        createdMs: nowMs,
        finishedMs: null,
      }),
    );
    return saved.id;
  });
}

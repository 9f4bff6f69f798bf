import type { TableEntry } from './personal-data.types';
import { as, kept, none, NOT_PERSONAL, person, plain, WHILE_USED } from './registry-columns';

/**
 * The webhook tables in the registry of personal data (contract.md §16): an endpoint belongs to
 * its owner; events carry ids and counts only, never a name, an email or an answer.
 */
const DELIVERY_RETENTION = '30 days after the delivery ended, then purged by the maintenance job';

export const WEBHOOK_TABLES: readonly TableEntry[] = [
  {
    table: 'webhook_endpoints',
    holds: "an address of a user's system that events are sent to",
    subject: 'the owner',
    columns: {
      id: none,
      owner_id: person,
      url: plain("the address of the owner's system (an application, not a person)"),
      events: none,
      secret_sealed: plain('the signing secret, encrypted; never exported or shown again'),
      previous_secret_sealed: plain('the secret before a rotation, for 24 hours; encrypted'),
      previous_secret_until: plain('when the previous secret stops signing'),
      created_at: as('time'),
      failing_since: none,
      disabled_at: none,
      disabled_reason: plain('why delivery stopped, in our words: no payload'),
    },
    retention: `${WHILE_USED}; deleted by its owner`,
    export: "the person's endpoints, without secrets",
    erasure: 'delete',
    erasedRows: { column: 'owner_id', matches: 'userId' },
  },
  {
    table: 'webhook_outbox',
    holds: 'a change not yet turned into an event (seconds at most)',
    subject: 'the owner the event is for, and the pupils it names (ids only)',
    columns: {
      id: none,
      type: none,
      subject_id: kept('the session, quiz or erased user the change is about: an id only'),
      audience_id: person,
      data: kept('ids of pupils named by answers batches; an erasure removes theirs'),
      created_ms: none,
    },
    retention: 'until dispatched, within seconds',
    export: 'nothing: the events it becomes belong to the endpoint owner',
    erasure: 'delete',
    erasedRows: { column: 'audience_id', matches: 'userId' },
  },
  {
    table: 'webhook_events',
    holds: 'an event as sent to endpoints: ids and counts',
    subject: 'the pupils it names (ids only)',
    columns: {
      id: none,
      message_id: none,
      type: none,
      body: kept(
        'ids of sessions, quizzes and pupils; an erasure removes theirs from events still owed, and in those sent an erased id names no one',
      ),
      created_ms: none,
    },
    retention: DELIVERY_RETENTION,
    export: 'nothing: sent to the endpoint owner, who keeps its copy',
    erasure: 'keep-for-others',
  },
  {
    table: 'webhook_deliveries',
    holds: 'an event owed to one endpoint, and its state',
    subject: null,
    columns: {
      id: none,
      event_id: none,
      endpoint_id: none,
      status: none,
      attempts: none,
      due_ms: none,
      lease_id: plain('a random claim of the instance sending it'),
      lease_until_ms: none,
      created_ms: none,
      finished_ms: none,
    },
    retention: DELIVERY_RETENTION,
    export: NOT_PERSONAL,
    erasure: 'none',
  },
  {
    table: 'webhook_attempts',
    holds: 'one attempt of a delivery: HTTP status, duration, a short error',
    subject: null,
    columns: {
      id: none,
      delivery_id: none,
      attempted_ms: none,
      outcome: none,
      status_code: none,
      duration_ms: none,
      error: plain('our description of a failure (timeout, status): never the answer body'),
    },
    retention: DELIVERY_RETENTION,
    export: NOT_PERSONAL,
    erasure: 'none',
  },
];

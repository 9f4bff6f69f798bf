import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { datetime } from './column-types';
import { User } from './user.entity';

/**
 * Webhooks (contract.md §16). A change writes an outbox entry in its own transaction; the
 * dispatcher turns entries into events (coalescing a session's answers within 1 s) and one
 * delivery per endpoint whose owner may see it; any instance claims due deliveries by lease.
 * Times that schedule work are epoch milliseconds: datetime columns keep whole seconds only.
 * Ids are int, not bigint: SQLite numbers rows only through an INTEGER key, and the purge keeps
 * these tables small.
 */

/** A user's endpoint: where events are sent, signed with its secret (sealed, never hashed). */
@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Index('ix_webhook_endpoints_owner')
  @Column({ type: 'int' })
  ownerId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id' })
  owner?: Relation<User>;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  /** The event types it receives, comma-separated, in the catalog's order. */
  @Column({ type: 'varchar', length: 255 })
  events!: string;

  /** The signing secret sealed by the secret box with the endpoint's id as context. */
  @Column({ type: 'varchar', length: 255 })
  secretSealed!: string;

  /** During a rotation: the previous secret, still signing until `previousSecretUntil`. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  previousSecretSealed!: string | null;

  @Column(datetime({ nullable: true }))
  previousSecretUntil!: Date | null;

  @CreateDateColumn(datetime())
  createdAt!: Date;

  /** Set by the first failed attempt after a success; cleared by the next success. */
  @Column(datetime({ nullable: true }))
  failingSince!: Date | null;

  @Column(datetime({ nullable: true }))
  disabledAt!: Date | null;

  /** Why it was disabled, for its owner: no payload, no secret. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  disabledReason!: string | null;
}

/**
 * A change not yet dispatched, written in the transaction of the change. No foreign key: the
 * insert stays one statement without lookups, and the dispatcher deletes it.
 */
@Entity('webhook_outbox')
@Index('ix_webhook_outbox_subject', ['type', 'subjectId'])
export class WebhookOutboxEntry {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ type: 'varchar', length: 32 })
  type!: string;

  /** The session, quiz or user the change is about. */
  @Column({ type: 'int' })
  subjectId!: number;

  /** The owner whose endpoints may see it (user.erased: those the person was known to). */
  @Column({ type: 'int', nullable: true })
  audienceId!: number | null;

  /** JSON: what the event's data takes from this change. */
  @Column({ type: 'text' })
  data!: string;

  /** Epoch milliseconds of the change. */
  @Column({ type: 'bigint' })
  createdMs!: number;
}

/** An event as sent: its id is the `webhook-id` of every delivery and redelivery of it. */
@Entity('webhook_events')
@Index('ix_webhook_events_created', ['createdMs'])
export class WebhookEvent {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  /** `msg_` and 24 random characters. */
  @Index('uq_webhook_events_message_id', { unique: true })
  @Column({ type: 'varchar', length: 40 })
  messageId!: string;

  @Column({ type: 'varchar', length: 32 })
  type!: string;

  /** The JSON body sent: {type, timestamp, data}. */
  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'bigint' })
  createdMs!: number;
}

/** One event owed to one endpoint, claimed by one instance at a time through its lease. */
@Entity('webhook_deliveries')
@Index('ix_webhook_deliveries_due', ['status', 'dueMs'])
@Index('ix_webhook_deliveries_endpoint', ['endpointId', 'id'])
export class WebhookDelivery {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => WebhookEvent, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Relation<WebhookEvent>;

  @Column({ type: 'int' })
  endpointId!: number;

  @ManyToOne(() => WebhookEndpoint, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id' })
  endpoint?: Relation<WebhookEndpoint>;

  /** pending, delivered or failed. */
  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  /** When it is due next (pending). */
  @Column({ type: 'bigint' })
  dueMs!: number;

  /** The claim of the instance sending it now, and until when it holds. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  leaseId!: string | null;

  @Column({ type: 'bigint', default: 0 })
  leaseUntilMs!: number;

  @Column({ type: 'bigint' })
  createdMs!: number;

  @Column({ type: 'bigint', nullable: true })
  finishedMs!: number | null;
}

/** Every attempt of a delivery: its HTTP status, duration and a short error. */
@Entity('webhook_attempts')
@Index('ix_webhook_attempts_delivery', ['deliveryId', 'id'])
export class WebhookAttempt {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ type: 'int' })
  deliveryId!: number;

  @ManyToOne(() => WebhookDelivery, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id' })
  delivery?: Relation<WebhookDelivery>;

  @Column({ type: 'bigint' })
  attemptedMs!: number;

  /** delivered, retry or failed. */
  @Column({ type: 'varchar', length: 16 })
  outcome!: string;

  @Column({ type: 'int', nullable: true })
  statusCode!: number | null;

  @Column({ type: 'int' })
  durationMs!: number;

  @Column({ type: 'varchar', length: 255, nullable: true })
  error!: string | null;
}

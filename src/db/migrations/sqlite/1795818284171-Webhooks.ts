import { MigrationInterface, QueryRunner } from "typeorm";

export class Webhooks1795818284171 implements MigrationInterface {
    name = 'Webhooks1795818284171'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "webhook_endpoints" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "owner_id" integer NOT NULL, "url" varchar(2048) NOT NULL, "events" varchar(255) NOT NULL, "secret_sealed" varchar(255) NOT NULL, "previous_secret_sealed" varchar(255), "previous_secret_until" datetime, "created_at" datetime NOT NULL DEFAULT (datetime('now')), "failing_since" datetime, "disabled_at" datetime, "disabled_reason" varchar(255))`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_endpoints_owner" ON "webhook_endpoints" ("owner_id") `);
        await queryRunner.query(`CREATE TABLE "webhook_outbox" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "type" varchar(32) NOT NULL, "subject_id" integer NOT NULL, "audience_id" integer, "data" text NOT NULL, "created_ms" bigint NOT NULL)`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_outbox_subject" ON "webhook_outbox" ("type", "subject_id") `);
        await queryRunner.query(`CREATE TABLE "webhook_events" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "message_id" varchar(40) NOT NULL, "type" varchar(32) NOT NULL, "body" text NOT NULL, "created_ms" bigint NOT NULL)`);
        await queryRunner.query(`CREATE UNIQUE INDEX "uq_webhook_events_message_id" ON "webhook_events" ("message_id") `);
        await queryRunner.query(`CREATE INDEX "ix_webhook_events_created" ON "webhook_events" ("created_ms") `);
        await queryRunner.query(`CREATE TABLE "webhook_deliveries" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "event_id" integer NOT NULL, "endpoint_id" integer NOT NULL, "status" varchar(16) NOT NULL, "attempts" integer NOT NULL DEFAULT (0), "due_ms" bigint NOT NULL, "lease_id" varchar(40), "lease_until_ms" bigint NOT NULL DEFAULT (0), "created_ms" bigint NOT NULL, "finished_ms" bigint)`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_endpoint" ON "webhook_deliveries" ("endpoint_id", "id") `);
        await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_due" ON "webhook_deliveries" ("status", "due_ms") `);
        await queryRunner.query(`CREATE TABLE "webhook_attempts" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "delivery_id" integer NOT NULL, "attempted_ms" bigint NOT NULL, "outcome" varchar(16) NOT NULL, "status_code" integer, "duration_ms" integer NOT NULL, "error" varchar(255))`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_attempts_delivery" ON "webhook_attempts" ("delivery_id", "id") `);
        await queryRunner.query(`DROP INDEX "ix_webhook_endpoints_owner"`);
        await queryRunner.query(`CREATE TABLE "temporary_webhook_endpoints" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "owner_id" integer NOT NULL, "url" varchar(2048) NOT NULL, "events" varchar(255) NOT NULL, "secret_sealed" varchar(255) NOT NULL, "previous_secret_sealed" varchar(255), "previous_secret_until" datetime, "created_at" datetime NOT NULL DEFAULT (datetime('now')), "failing_since" datetime, "disabled_at" datetime, "disabled_reason" varchar(255), CONSTRAINT "FK_b5dcaff83b5523435437b9faa8c" FOREIGN KEY ("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
        await queryRunner.query(`INSERT INTO "temporary_webhook_endpoints"("id", "owner_id", "url", "events", "secret_sealed", "previous_secret_sealed", "previous_secret_until", "created_at", "failing_since", "disabled_at", "disabled_reason") SELECT "id", "owner_id", "url", "events", "secret_sealed", "previous_secret_sealed", "previous_secret_until", "created_at", "failing_since", "disabled_at", "disabled_reason" FROM "webhook_endpoints"`);
        await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
        await queryRunner.query(`ALTER TABLE "temporary_webhook_endpoints" RENAME TO "webhook_endpoints"`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_endpoints_owner" ON "webhook_endpoints" ("owner_id") `);
        await queryRunner.query(`DROP INDEX "ix_webhook_deliveries_endpoint"`);
        await queryRunner.query(`DROP INDEX "ix_webhook_deliveries_due"`);
        await queryRunner.query(`CREATE TABLE "temporary_webhook_deliveries" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "event_id" integer NOT NULL, "endpoint_id" integer NOT NULL, "status" varchar(16) NOT NULL, "attempts" integer NOT NULL DEFAULT (0), "due_ms" bigint NOT NULL, "lease_id" varchar(40), "lease_until_ms" bigint NOT NULL DEFAULT (0), "created_ms" bigint NOT NULL, "finished_ms" bigint, CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f" FOREIGN KEY ("event_id") REFERENCES "webhook_events" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_0b882c26a9b91c26e6e86b4867c" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
        await queryRunner.query(`INSERT INTO "temporary_webhook_deliveries"("id", "event_id", "endpoint_id", "status", "attempts", "due_ms", "lease_id", "lease_until_ms", "created_ms", "finished_ms") SELECT "id", "event_id", "endpoint_id", "status", "attempts", "due_ms", "lease_id", "lease_until_ms", "created_ms", "finished_ms" FROM "webhook_deliveries"`);
        await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
        await queryRunner.query(`ALTER TABLE "temporary_webhook_deliveries" RENAME TO "webhook_deliveries"`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_endpoint" ON "webhook_deliveries" ("endpoint_id", "id") `);
        await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_due" ON "webhook_deliveries" ("status", "due_ms") `);
        await queryRunner.query(`DROP INDEX "ix_webhook_attempts_delivery"`);
        await queryRunner.query(`CREATE TABLE "temporary_webhook_attempts" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "delivery_id" integer NOT NULL, "attempted_ms" bigint NOT NULL, "outcome" varchar(16) NOT NULL, "status_code" integer, "duration_ms" integer NOT NULL, "error" varchar(255), CONSTRAINT "FK_0d56d91d61b827bb2079c256538" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
        await queryRunner.query(`INSERT INTO "temporary_webhook_attempts"("id", "delivery_id", "attempted_ms", "outcome", "status_code", "duration_ms", "error") SELECT "id", "delivery_id", "attempted_ms", "outcome", "status_code", "duration_ms", "error" FROM "webhook_attempts"`);
        await queryRunner.query(`DROP TABLE "webhook_attempts"`);
        await queryRunner.query(`ALTER TABLE "temporary_webhook_attempts" RENAME TO "webhook_attempts"`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_attempts_delivery" ON "webhook_attempts" ("delivery_id", "id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "ix_webhook_attempts_delivery"`);
        await queryRunner.query(`ALTER TABLE "webhook_attempts" RENAME TO "temporary_webhook_attempts"`);
        await queryRunner.query(`CREATE TABLE "webhook_attempts" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "delivery_id" integer NOT NULL, "attempted_ms" bigint NOT NULL, "outcome" varchar(16) NOT NULL, "status_code" integer, "duration_ms" integer NOT NULL, "error" varchar(255))`);
        await queryRunner.query(`INSERT INTO "webhook_attempts"("id", "delivery_id", "attempted_ms", "outcome", "status_code", "duration_ms", "error") SELECT "id", "delivery_id", "attempted_ms", "outcome", "status_code", "duration_ms", "error" FROM "temporary_webhook_attempts"`);
        await queryRunner.query(`DROP TABLE "temporary_webhook_attempts"`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_attempts_delivery" ON "webhook_attempts" ("delivery_id", "id") `);
        await queryRunner.query(`DROP INDEX "ix_webhook_deliveries_due"`);
        await queryRunner.query(`DROP INDEX "ix_webhook_deliveries_endpoint"`);
        await queryRunner.query(`ALTER TABLE "webhook_deliveries" RENAME TO "temporary_webhook_deliveries"`);
        await queryRunner.query(`CREATE TABLE "webhook_deliveries" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "event_id" integer NOT NULL, "endpoint_id" integer NOT NULL, "status" varchar(16) NOT NULL, "attempts" integer NOT NULL DEFAULT (0), "due_ms" bigint NOT NULL, "lease_id" varchar(40), "lease_until_ms" bigint NOT NULL DEFAULT (0), "created_ms" bigint NOT NULL, "finished_ms" bigint)`);
        await queryRunner.query(`INSERT INTO "webhook_deliveries"("id", "event_id", "endpoint_id", "status", "attempts", "due_ms", "lease_id", "lease_until_ms", "created_ms", "finished_ms") SELECT "id", "event_id", "endpoint_id", "status", "attempts", "due_ms", "lease_id", "lease_until_ms", "created_ms", "finished_ms" FROM "temporary_webhook_deliveries"`);
        await queryRunner.query(`DROP TABLE "temporary_webhook_deliveries"`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_due" ON "webhook_deliveries" ("status", "due_ms") `);
        await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_endpoint" ON "webhook_deliveries" ("endpoint_id", "id") `);
        await queryRunner.query(`DROP INDEX "ix_webhook_endpoints_owner"`);
        await queryRunner.query(`ALTER TABLE "webhook_endpoints" RENAME TO "temporary_webhook_endpoints"`);
        await queryRunner.query(`CREATE TABLE "webhook_endpoints" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "owner_id" integer NOT NULL, "url" varchar(2048) NOT NULL, "events" varchar(255) NOT NULL, "secret_sealed" varchar(255) NOT NULL, "previous_secret_sealed" varchar(255), "previous_secret_until" datetime, "created_at" datetime NOT NULL DEFAULT (datetime('now')), "failing_since" datetime, "disabled_at" datetime, "disabled_reason" varchar(255))`);
        await queryRunner.query(`INSERT INTO "webhook_endpoints"("id", "owner_id", "url", "events", "secret_sealed", "previous_secret_sealed", "previous_secret_until", "created_at", "failing_since", "disabled_at", "disabled_reason") SELECT "id", "owner_id", "url", "events", "secret_sealed", "previous_secret_sealed", "previous_secret_until", "created_at", "failing_since", "disabled_at", "disabled_reason" FROM "temporary_webhook_endpoints"`);
        await queryRunner.query(`DROP TABLE "temporary_webhook_endpoints"`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_endpoints_owner" ON "webhook_endpoints" ("owner_id") `);
        await queryRunner.query(`DROP INDEX "ix_webhook_attempts_delivery"`);
        await queryRunner.query(`DROP TABLE "webhook_attempts"`);
        await queryRunner.query(`DROP INDEX "ix_webhook_deliveries_due"`);
        await queryRunner.query(`DROP INDEX "ix_webhook_deliveries_endpoint"`);
        await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
        await queryRunner.query(`DROP INDEX "ix_webhook_events_created"`);
        await queryRunner.query(`DROP INDEX "uq_webhook_events_message_id"`);
        await queryRunner.query(`DROP TABLE "webhook_events"`);
        await queryRunner.query(`DROP INDEX "ix_webhook_outbox_subject"`);
        await queryRunner.query(`DROP TABLE "webhook_outbox"`);
        await queryRunner.query(`DROP INDEX "ix_webhook_endpoints_owner"`);
        await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
    }

}

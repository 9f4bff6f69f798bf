import { MigrationInterface, QueryRunner } from "typeorm";

export class Webhooks1795818281877 implements MigrationInterface {
    name = 'Webhooks1795818281877'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE \`webhook_endpoints\` (\`id\` int NOT NULL AUTO_INCREMENT, \`owner_id\` int NOT NULL, \`url\` varchar(2048) NOT NULL, \`events\` varchar(255) NOT NULL, \`secret_sealed\` varchar(255) NOT NULL, \`previous_secret_sealed\` varchar(255) NULL, \`previous_secret_until\` datetime NULL, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), \`failing_since\` datetime NULL, \`disabled_at\` datetime NULL, \`disabled_reason\` varchar(255) NULL, INDEX \`ix_webhook_endpoints_owner\` (\`owner_id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`webhook_outbox\` (\`id\` int NOT NULL AUTO_INCREMENT, \`type\` varchar(32) NOT NULL, \`subject_id\` int NOT NULL, \`audience_id\` int NULL, \`data\` text NOT NULL, \`created_ms\` bigint NOT NULL, INDEX \`ix_webhook_outbox_subject\` (\`type\`, \`subject_id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`webhook_events\` (\`id\` int NOT NULL AUTO_INCREMENT, \`message_id\` varchar(40) NOT NULL, \`type\` varchar(32) NOT NULL, \`body\` text NOT NULL, \`created_ms\` bigint NOT NULL, UNIQUE INDEX \`uq_webhook_events_message_id\` (\`message_id\`), INDEX \`ix_webhook_events_created\` (\`created_ms\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`webhook_deliveries\` (\`id\` int NOT NULL AUTO_INCREMENT, \`event_id\` int NOT NULL, \`endpoint_id\` int NOT NULL, \`status\` varchar(16) NOT NULL, \`attempts\` int NOT NULL DEFAULT '0', \`due_ms\` bigint NOT NULL, \`lease_id\` varchar(40) NULL, \`lease_until_ms\` bigint NOT NULL DEFAULT '0', \`created_ms\` bigint NOT NULL, \`finished_ms\` bigint NULL, INDEX \`ix_webhook_deliveries_endpoint\` (\`endpoint_id\`, \`id\`), INDEX \`ix_webhook_deliveries_due\` (\`status\`, \`due_ms\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`webhook_attempts\` (\`id\` int NOT NULL AUTO_INCREMENT, \`delivery_id\` int NOT NULL, \`attempted_ms\` bigint NOT NULL, \`outcome\` varchar(16) NOT NULL, \`status_code\` int NULL, \`duration_ms\` int NOT NULL, \`error\` varchar(255) NULL, INDEX \`ix_webhook_attempts_delivery\` (\`delivery_id\`, \`id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`ALTER TABLE \`webhook_endpoints\` ADD CONSTRAINT \`FK_b5dcaff83b5523435437b9faa8c\` FOREIGN KEY (\`owner_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`webhook_deliveries\` ADD CONSTRAINT \`FK_27d1ee90033bdafe0ffe8f1be6f\` FOREIGN KEY (\`event_id\`) REFERENCES \`webhook_events\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`webhook_deliveries\` ADD CONSTRAINT \`FK_0b882c26a9b91c26e6e86b4867c\` FOREIGN KEY (\`endpoint_id\`) REFERENCES \`webhook_endpoints\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`webhook_attempts\` ADD CONSTRAINT \`FK_0d56d91d61b827bb2079c256538\` FOREIGN KEY (\`delivery_id\`) REFERENCES \`webhook_deliveries\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE \`webhook_attempts\` DROP FOREIGN KEY \`FK_0d56d91d61b827bb2079c256538\``);
        await queryRunner.query(`ALTER TABLE \`webhook_deliveries\` DROP FOREIGN KEY \`FK_0b882c26a9b91c26e6e86b4867c\``);
        await queryRunner.query(`ALTER TABLE \`webhook_deliveries\` DROP FOREIGN KEY \`FK_27d1ee90033bdafe0ffe8f1be6f\``);
        await queryRunner.query(`ALTER TABLE \`webhook_endpoints\` DROP FOREIGN KEY \`FK_b5dcaff83b5523435437b9faa8c\``);
        await queryRunner.query(`DROP INDEX \`ix_webhook_attempts_delivery\` ON \`webhook_attempts\``);
        await queryRunner.query(`DROP TABLE \`webhook_attempts\``);
        await queryRunner.query(`DROP INDEX \`ix_webhook_deliveries_due\` ON \`webhook_deliveries\``);
        await queryRunner.query(`DROP INDEX \`ix_webhook_deliveries_endpoint\` ON \`webhook_deliveries\``);
        await queryRunner.query(`DROP TABLE \`webhook_deliveries\``);
        await queryRunner.query(`DROP INDEX \`ix_webhook_events_created\` ON \`webhook_events\``);
        await queryRunner.query(`DROP INDEX \`uq_webhook_events_message_id\` ON \`webhook_events\``);
        await queryRunner.query(`DROP TABLE \`webhook_events\``);
        await queryRunner.query(`DROP INDEX \`ix_webhook_outbox_subject\` ON \`webhook_outbox\``);
        await queryRunner.query(`DROP TABLE \`webhook_outbox\``);
        await queryRunner.query(`DROP INDEX \`ix_webhook_endpoints_owner\` ON \`webhook_endpoints\``);
        await queryRunner.query(`DROP TABLE \`webhook_endpoints\``);
    }

}

import { MigrationInterface, QueryRunner } from "typeorm";

export class SessionIngestion1795491343684 implements MigrationInterface {
    name = 'SessionIngestion1795491343684'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE \`session_changes\` (\`session_id\` int NOT NULL, \`version\` int NOT NULL DEFAULT '0', \`changed_at\` datetime NOT NULL, PRIMARY KEY (\`session_id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`ALTER TABLE \`sessions\` ADD \`client_ref\` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX \`uq_sessions_owner_client_ref\` ON \`sessions\` (\`owner_id\`, \`client_ref\`)`);
        await queryRunner.query(`ALTER TABLE \`session_changes\` ADD CONSTRAINT \`FK_27c9250164d1a0a672f4cdeea38\` FOREIGN KEY (\`session_id\`) REFERENCES \`sessions\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE \`session_changes\` DROP FOREIGN KEY \`FK_27c9250164d1a0a672f4cdeea38\``);
        await queryRunner.query(`DROP INDEX \`uq_sessions_owner_client_ref\` ON \`sessions\``);
        await queryRunner.query(`ALTER TABLE \`sessions\` DROP COLUMN \`client_ref\``);
        await queryRunner.query(`DROP TABLE \`session_changes\``);
    }

}

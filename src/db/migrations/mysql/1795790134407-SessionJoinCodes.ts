import { MigrationInterface, QueryRunner } from "typeorm";

export class SessionJoinCodes1795790134407 implements MigrationInterface {
    name = 'SessionJoinCodes1795790134407'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE \`sessions\` ADD \`join_code\` varchar(8) NULL`);
        await queryRunner.query(`ALTER TABLE \`sessions\` ADD \`join_code_expires_at\` datetime NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX \`uq_sessions_join_code\` ON \`sessions\` (\`join_code\`)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX \`uq_sessions_join_code\` ON \`sessions\``);
        await queryRunner.query(`ALTER TABLE \`sessions\` DROP COLUMN \`join_code_expires_at\``);
        await queryRunner.query(`ALTER TABLE \`sessions\` DROP COLUMN \`join_code\``);
    }

}

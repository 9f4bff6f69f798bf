import { MigrationInterface, QueryRunner } from "typeorm";

export class SessionJoinCodes1795790178321 implements MigrationInterface {
    name = 'SessionJoinCodes1795790178321'

    public async up(queryRunner: QueryRunner): Promise<void> {
        // Reviewed: ADD COLUMN instead of the generated copy of "sessions", which would drop the
        // table that attendees, played quizzes and answers reference (as SessionIngestion did).
        await queryRunner.query(`ALTER TABLE "sessions" ADD COLUMN "join_code" varchar(8)`);
        await queryRunner.query(`ALTER TABLE "sessions" ADD COLUMN "join_code_expires_at" datetime`);
        await queryRunner.query(`CREATE UNIQUE INDEX "uq_sessions_join_code" ON "sessions" ("join_code") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "uq_sessions_join_code"`);
        await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "join_code_expires_at"`);
        await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "join_code"`);
    }

}

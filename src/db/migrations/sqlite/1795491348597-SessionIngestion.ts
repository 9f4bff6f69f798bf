import { MigrationInterface, QueryRunner } from "typeorm";

export class SessionIngestion1795491348597 implements MigrationInterface {
    name = 'SessionIngestion1795491348597'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "session_changes" ("session_id" integer PRIMARY KEY NOT NULL, "version" integer NOT NULL DEFAULT (0), "changed_at" datetime NOT NULL, CONSTRAINT "FK_27c9250164d1a0a672f4cdeea38" FOREIGN KEY ("session_id") REFERENCES "sessions" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
        // Reviewed: ADD COLUMN instead of the generated copy of "sessions", which would drop the
        // table that attendees, played quizzes and answers reference.
        await queryRunner.query(`ALTER TABLE "sessions" ADD COLUMN "client_ref" varchar(64)`);
        await queryRunner.query(`CREATE UNIQUE INDEX "uq_sessions_owner_client_ref" ON "sessions" ("owner_id", "client_ref") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "uq_sessions_owner_client_ref"`);
        await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "client_ref"`);
        await queryRunner.query(`DROP TABLE "session_changes"`);
    }

}

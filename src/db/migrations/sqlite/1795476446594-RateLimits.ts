import { MigrationInterface, QueryRunner } from "typeorm";

export class RateLimits1795476446594 implements MigrationInterface {
    name = 'RateLimits1795476446594'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "rate_limits" ("key" varchar(255) PRIMARY KEY NOT NULL, "points" integer NOT NULL DEFAULT (0), "expire" bigint)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "rate_limits"`);
    }

}

import { MigrationInterface, QueryRunner } from "typeorm";

export class ItemStatistics1795528532848 implements MigrationInterface {
    name = 'ItemStatistics1795528532848'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "question_statistics" ("data_set_id" integer NOT NULL, "position" integer NOT NULL, "quiz_id" integer NOT NULL, "question_index" integer NOT NULL, "title" varchar(250) NOT NULL, "type" varchar(40) NOT NULL, "nb_attempts" integer NOT NULL, "nb_answers" integer NOT NULL, "nb_good_answers" integer, "facility" double, "discrimination" double, "choice_counts" varchar(120), PRIMARY KEY ("data_set_id", "position"))`);
        await queryRunner.query(`CREATE TABLE "quiz_statistics" ("data_set_id" integer NOT NULL, "position" integer NOT NULL, "quiz_id" integer NOT NULL, "nb_attempts" integer NOT NULL, "mean" double, "median" double, "stddev" double, "cronbach_alpha" double, "histogram" varchar(120), PRIMARY KEY ("data_set_id", "position"))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "quiz_statistics"`);
        await queryRunner.query(`DROP TABLE "question_statistics"`);
    }

}

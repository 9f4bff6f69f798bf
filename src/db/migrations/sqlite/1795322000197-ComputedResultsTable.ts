import { MigrationInterface, QueryRunner } from "typeorm";

export class ComputedResultsTable1795322000197 implements MigrationInterface {
    name = 'ComputedResultsTable1795322000197'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "computed_results" ("data_set_id" integer NOT NULL, "position" integer NOT NULL, "user_id" integer, "quiz_id" integer, "session_id" integer, "aggregation_function" varchar(10), "nb_good_answers" double, "good_answers_percent" double, "percentile" double, "nb_answers" double, "duration" double, PRIMARY KEY ("data_set_id", "position"))`);
        // Reviewed: the results of unexpired sets move to the new table; the copy below keeps the rest.
        await queryRunner.query(`INSERT INTO "computed_results"("data_set_id", "position", "user_id", "quiz_id", "session_id", "aggregation_function", "nb_good_answers", "good_answers_percent", "percentile", "nb_answers", "duration") SELECT "data_set_id", "position", "user_id", "quiz_id", "session_id", "aggregation_function", "nb_good_answers", "good_answers_percent", "percentile", "nb_answers", "duration" FROM "data_set_items" WHERE "data_set_id" IN (SELECT "id" FROM "data_sets" WHERE "item_type" = 'computedResult')`);
        await queryRunner.query(`DROP INDEX "ix_data_set_items_set_item"`);
        await queryRunner.query(`CREATE TABLE "temporary_data_set_items" ("data_set_id" integer NOT NULL, "position" integer NOT NULL, "item_id" integer, PRIMARY KEY ("data_set_id", "position"))`);
        await queryRunner.query(`INSERT INTO "temporary_data_set_items"("data_set_id", "position", "item_id") SELECT "data_set_id", "position", "item_id" FROM "data_set_items" WHERE "data_set_id" NOT IN (SELECT "id" FROM "data_sets" WHERE "item_type" = 'computedResult')`);
        await queryRunner.query(`DROP TABLE "data_set_items"`);
        await queryRunner.query(`ALTER TABLE "temporary_data_set_items" RENAME TO "data_set_items"`);
        await queryRunner.query(`CREATE INDEX "ix_data_set_items_set_item" ON "data_set_items" ("data_set_id", "item_id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "ix_data_set_items_set_item"`);
        await queryRunner.query(`ALTER TABLE "data_set_items" RENAME TO "temporary_data_set_items"`);
        await queryRunner.query(`CREATE TABLE "data_set_items" ("data_set_id" integer NOT NULL, "position" integer NOT NULL, "item_id" integer, "user_id" integer, "quiz_id" integer, "session_id" integer, "aggregation_function" varchar(10), "nb_good_answers" double, "good_answers_percent" double, "percentile" double, "nb_answers" double, "duration" double, PRIMARY KEY ("data_set_id", "position"))`);
        await queryRunner.query(`INSERT INTO "data_set_items"("data_set_id", "position", "item_id") SELECT "data_set_id", "position", "item_id" FROM "temporary_data_set_items"`);
        await queryRunner.query(`INSERT INTO "data_set_items"("data_set_id", "position", "user_id", "quiz_id", "session_id", "aggregation_function", "nb_good_answers", "good_answers_percent", "percentile", "nb_answers", "duration") SELECT "data_set_id", "position", "user_id", "quiz_id", "session_id", "aggregation_function", "nb_good_answers", "good_answers_percent", "percentile", "nb_answers", "duration" FROM "computed_results"`);
        await queryRunner.query(`DROP TABLE "temporary_data_set_items"`);
        await queryRunner.query(`CREATE INDEX "ix_data_set_items_set_item" ON "data_set_items" ("data_set_id", "item_id") `);
        await queryRunner.query(`DROP TABLE "computed_results"`);
    }

}

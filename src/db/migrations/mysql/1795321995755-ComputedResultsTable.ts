import { MigrationInterface, QueryRunner } from "typeorm";

export class ComputedResultsTable1795321995755 implements MigrationInterface {
    name = 'ComputedResultsTable1795321995755'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE \`computed_results\` (\`data_set_id\` int NOT NULL, \`position\` int NOT NULL, \`user_id\` int NULL, \`quiz_id\` int NULL, \`session_id\` int NULL, \`aggregation_function\` varchar(10) NULL, \`nb_good_answers\` double NULL, \`good_answers_percent\` double NULL, \`percentile\` double NULL, \`nb_answers\` double NULL, \`duration\` double NULL, PRIMARY KEY (\`data_set_id\`, \`position\`)) ENGINE=InnoDB`);
        // Reviewed: the results of unexpired sets move to the new table before their columns go.
        await queryRunner.query(`INSERT INTO \`computed_results\` (\`data_set_id\`, \`position\`, \`user_id\`, \`quiz_id\`, \`session_id\`, \`aggregation_function\`, \`nb_good_answers\`, \`good_answers_percent\`, \`percentile\`, \`nb_answers\`, \`duration\`) SELECT i.\`data_set_id\`, i.\`position\`, i.\`user_id\`, i.\`quiz_id\`, i.\`session_id\`, i.\`aggregation_function\`, i.\`nb_good_answers\`, i.\`good_answers_percent\`, i.\`percentile\`, i.\`nb_answers\`, i.\`duration\` FROM \`data_set_items\` i JOIN \`data_sets\` s ON s.\`id\` = i.\`data_set_id\` WHERE s.\`item_type\` = 'computedResult'`);
        await queryRunner.query(`DELETE FROM \`data_set_items\` WHERE \`data_set_id\` IN (SELECT \`id\` FROM \`data_sets\` WHERE \`item_type\` = 'computedResult')`);
        // Reviewed: one ALTER rather than nine, so the table is rebuilt once.
        await queryRunner.query(`ALTER TABLE \`data_set_items\` DROP COLUMN \`user_id\`, DROP COLUMN \`quiz_id\`, DROP COLUMN \`session_id\`, DROP COLUMN \`aggregation_function\`, DROP COLUMN \`nb_good_answers\`, DROP COLUMN \`good_answers_percent\`, DROP COLUMN \`percentile\`, DROP COLUMN \`nb_answers\`, DROP COLUMN \`duration\``);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE \`data_set_items\` ADD \`user_id\` int NULL, ADD \`quiz_id\` int NULL, ADD \`session_id\` int NULL, ADD \`aggregation_function\` varchar(10) NULL, ADD \`nb_good_answers\` double NULL, ADD \`good_answers_percent\` double NULL, ADD \`percentile\` double NULL, ADD \`nb_answers\` double NULL, ADD \`duration\` double NULL`);
        await queryRunner.query(`INSERT INTO \`data_set_items\` (\`data_set_id\`, \`position\`, \`item_id\`, \`user_id\`, \`quiz_id\`, \`session_id\`, \`aggregation_function\`, \`nb_good_answers\`, \`good_answers_percent\`, \`percentile\`, \`nb_answers\`, \`duration\`) SELECT \`data_set_id\`, \`position\`, NULL, \`user_id\`, \`quiz_id\`, \`session_id\`, \`aggregation_function\`, \`nb_good_answers\`, \`good_answers_percent\`, \`percentile\`, \`nb_answers\`, \`duration\` FROM \`computed_results\``);
        await queryRunner.query(`DROP TABLE \`computed_results\``);
    }

}

import { MigrationInterface, QueryRunner } from "typeorm";

export class ItemStatistics1795528520589 implements MigrationInterface {
    name = 'ItemStatistics1795528520589'

    public async up(queryRunner: QueryRunner): Promise<void> {
        // Reviewed: only the two tables; the generator's other lines were MariaDB's known false
        // differences (nullable columns read back with DEFAULT 'NULL'), as in earlier migrations.
        await queryRunner.query(`CREATE TABLE \`question_statistics\` (\`data_set_id\` int NOT NULL, \`position\` int NOT NULL, \`quiz_id\` int NOT NULL, \`question_index\` int NOT NULL, \`title\` varchar(250) NOT NULL, \`type\` varchar(40) NOT NULL, \`nb_attempts\` int NOT NULL, \`nb_answers\` int NOT NULL, \`nb_good_answers\` int NULL, \`facility\` double NULL, \`discrimination\` double NULL, \`choice_counts\` varchar(120) NULL, PRIMARY KEY (\`data_set_id\`, \`position\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`quiz_statistics\` (\`data_set_id\` int NOT NULL, \`position\` int NOT NULL, \`quiz_id\` int NOT NULL, \`nb_attempts\` int NOT NULL, \`mean\` double NULL, \`median\` double NULL, \`stddev\` double NULL, \`cronbach_alpha\` double NULL, \`histogram\` varchar(120) NULL, PRIMARY KEY (\`data_set_id\`, \`position\`)) ENGINE=InnoDB`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE \`quiz_statistics\``);
        await queryRunner.query(`DROP TABLE \`question_statistics\``);
    }

}

import { MigrationInterface, QueryRunner } from "typeorm";

export class RateLimits1795476442554 implements MigrationInterface {
    name = 'RateLimits1795476442554'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE \`rate_limits\` (\`key\` varchar(255) NOT NULL, \`points\` int NOT NULL DEFAULT '0', \`expire\` bigint NULL, PRIMARY KEY (\`key\`)) ENGINE=InnoDB`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE \`rate_limits\``);
    }

}

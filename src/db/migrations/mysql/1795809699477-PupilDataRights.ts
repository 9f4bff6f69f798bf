import { MigrationInterface, QueryRunner } from "typeorm";

export class PupilDataRights1795809699477 implements MigrationInterface {
    name = 'PupilDataRights1795809699477'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE \`quizzes\` DROP FOREIGN KEY \`FK_d00e656ff1e001844e2389ce17b\``);
        await queryRunner.query(`ALTER TABLE \`sessions\` DROP FOREIGN KEY \`FK_9b62a28ab0bc9ab3c882ab55afa\``);
        await queryRunner.query(`ALTER TABLE \`user_groups\` DROP FOREIGN KEY \`FK_f60cdcccbae12fe7c0e17e311e0\``);
        await queryRunner.query(`CREATE TABLE \`access_log\` (\`id\` int NOT NULL AUTO_INCREMENT, \`accessed_at\` datetime NOT NULL, \`requester_user_id\` int NULL, \`requester_api_key_id\` int NULL, \`operation\` varchar(64) NOT NULL, \`request_id\` varchar(64) NOT NULL, \`subject_user_id\` int NOT NULL, INDEX \`ix_access_log_accessed_at\` (\`accessed_at\`), INDEX \`ix_access_log_subject\` (\`subject_user_id\`, \`accessed_at\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`erasures\` (\`id\` int NOT NULL AUTO_INCREMENT, \`subject_hash\` varchar(64) NOT NULL, \`erased_at\` datetime NOT NULL, \`erased_by\` varchar(100) NOT NULL, INDEX \`ix_erasures_subject_hash\` (\`subject_hash\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`ALTER TABLE \`users\` ADD \`erased_at\` datetime NULL`);
        await queryRunner.query(`ALTER TABLE \`users\` CHANGE \`email\` \`email\` varchar(254) NULL`);
        await queryRunner.query(`ALTER TABLE \`users\` CHANGE \`first_name\` \`first_name\` varchar(100) NULL`);
        await queryRunner.query(`ALTER TABLE \`users\` CHANGE \`last_name\` \`last_name\` varchar(100) NULL`);
        await queryRunner.query(`ALTER TABLE \`quizzes\` ADD CONSTRAINT \`FK_d00e656ff1e001844e2389ce17b\` FOREIGN KEY (\`author_id\`) REFERENCES \`users\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`sessions\` ADD CONSTRAINT \`FK_9b62a28ab0bc9ab3c882ab55afa\` FOREIGN KEY (\`owner_id\`) REFERENCES \`users\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`user_groups\` ADD CONSTRAINT \`FK_f60cdcccbae12fe7c0e17e311e0\` FOREIGN KEY (\`owner_id\`) REFERENCES \`users\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE \`user_groups\` DROP FOREIGN KEY \`FK_f60cdcccbae12fe7c0e17e311e0\``);
        await queryRunner.query(`ALTER TABLE \`sessions\` DROP FOREIGN KEY \`FK_9b62a28ab0bc9ab3c882ab55afa\``);
        await queryRunner.query(`ALTER TABLE \`quizzes\` DROP FOREIGN KEY \`FK_d00e656ff1e001844e2389ce17b\``);
        await queryRunner.query(`ALTER TABLE \`users\` CHANGE \`last_name\` \`last_name\` varchar(100) NOT NULL`);
        await queryRunner.query(`ALTER TABLE \`users\` CHANGE \`first_name\` \`first_name\` varchar(100) NOT NULL`);
        await queryRunner.query(`ALTER TABLE \`users\` CHANGE \`email\` \`email\` varchar(254) NOT NULL`);
        await queryRunner.query(`ALTER TABLE \`users\` DROP COLUMN \`erased_at\``);
        await queryRunner.query(`DROP INDEX \`ix_erasures_subject_hash\` ON \`erasures\``);
        await queryRunner.query(`DROP TABLE \`erasures\``);
        await queryRunner.query(`DROP INDEX \`ix_access_log_subject\` ON \`access_log\``);
        await queryRunner.query(`DROP INDEX \`ix_access_log_accessed_at\` ON \`access_log\``);
        await queryRunner.query(`DROP TABLE \`access_log\``);
        await queryRunner.query(`ALTER TABLE \`user_groups\` ADD CONSTRAINT \`FK_f60cdcccbae12fe7c0e17e311e0\` FOREIGN KEY (\`owner_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`sessions\` ADD CONSTRAINT \`FK_9b62a28ab0bc9ab3c882ab55afa\` FOREIGN KEY (\`owner_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`quizzes\` ADD CONSTRAINT \`FK_d00e656ff1e001844e2389ce17b\` FOREIGN KEY (\`author_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

}

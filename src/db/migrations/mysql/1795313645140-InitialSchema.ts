import { MigrationInterface, QueryRunner } from "typeorm";

export class InitialSchema1795313645140 implements MigrationInterface {
    name = 'InitialSchema1795313645140'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE \`users\` (\`id\` int NOT NULL AUTO_INCREMENT, \`email\` varchar(254) NOT NULL, \`password_hash\` varchar(255) NULL, \`first_name\` varchar(100) NOT NULL, \`last_name\` varchar(100) NOT NULL, \`picture_url\` varchar(2048) NULL, \`public_profile\` tinyint NOT NULL DEFAULT 0, \`can_create_private_quizzes\` tinyint NOT NULL DEFAULT 0, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), UNIQUE INDEX \`uq_users_email\` (\`email\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`api_keys\` (\`id\` int NOT NULL AUTO_INCREMENT, \`key_hash\` varchar(64) NOT NULL, \`key_prefix\` varchar(16) NOT NULL, \`host\` varchar(253) NOT NULL, \`label\` varchar(100) NOT NULL DEFAULT '', \`owner_id\` int NULL, \`revoked_at\` datetime NULL, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), \`last_used_at\` datetime NULL, UNIQUE INDEX \`uq_api_keys_key_hash\` (\`key_hash\`), INDEX \`ix_api_keys_owner\` (\`owner_id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`access_tokens\` (\`id\` int NOT NULL AUTO_INCREMENT, \`token_hash\` varchar(64) NOT NULL, \`user_id\` int NOT NULL, \`api_key_id\` int NOT NULL, \`expires_at\` datetime NOT NULL, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), UNIQUE INDEX \`uq_access_tokens_token_hash\` (\`token_hash\`), INDEX \`ix_access_tokens_user\` (\`user_id\`), INDEX \`ix_access_tokens_api_key\` (\`api_key_id\`), INDEX \`ix_access_tokens_expires_at\` (\`expires_at\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`quizzes\` (\`id\` int NOT NULL AUTO_INCREMENT, \`author_id\` int NOT NULL, \`title\` varchar(250) NOT NULL, \`visibility\` varchar(10) NOT NULL, \`survey\` tinyint NOT NULL DEFAULT 0, \`default_duration\` varchar(20) NULL, \`nb_questions\` int NOT NULL DEFAULT '0', \`creation_date\` datetime NOT NULL, \`last_change_date\` datetime NOT NULL, INDEX \`ix_quizzes_author\` (\`author_id\`), INDEX \`ix_quizzes_last_change\` (\`last_change_date\`), INDEX \`ix_quizzes_visibility_creation\` (\`visibility\`, \`creation_date\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`quiz_tags\` (\`quiz_id\` int NOT NULL, \`position\` int NOT NULL, \`tag\` varchar(100) NOT NULL, INDEX \`ix_quiz_tags_tag\` (\`tag\`, \`quiz_id\`), PRIMARY KEY (\`quiz_id\`, \`position\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`questions\` (\`id\` int NOT NULL AUTO_INCREMENT, \`quiz_id\` int NOT NULL, \`position\` int NOT NULL, \`type\` varchar(40) NOT NULL, \`title\` varchar(250) NOT NULL, \`media_type\` varchar(10) NULL, \`media_url\` varchar(2048) NULL, \`propositions\` text NULL, \`good_answer\` text NULL, \`tolerance\` smallint NULL, \`case_sensitive\` tinyint NULL, UNIQUE INDEX \`uq_questions_quiz_position\` (\`quiz_id\`, \`position\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`sessions\` (\`id\` int NOT NULL AUTO_INCREMENT, \`owner_id\` int NOT NULL, \`title\` varchar(250) NOT NULL, \`start_date\` datetime NOT NULL, INDEX \`ix_sessions_owner\` (\`owner_id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`session_attendees\` (\`session_id\` int NOT NULL, \`user_id\` int NOT NULL, \`raised_hand\` tinyint NOT NULL DEFAULT 0, INDEX \`ix_session_attendees_user\` (\`user_id\`), PRIMARY KEY (\`session_id\`, \`user_id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`session_quizzes\` (\`session_id\` int NOT NULL, \`quiz_id\` int NOT NULL, INDEX \`ix_session_quizzes_quiz\` (\`quiz_id\`), PRIMARY KEY (\`session_id\`, \`quiz_id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`answers\` (\`id\` int NOT NULL AUTO_INCREMENT, \`session_id\` int NOT NULL, \`user_id\` int NOT NULL, \`quiz_id\` int NOT NULL, \`question_id\` int NOT NULL, \`value\` text NOT NULL, \`good\` tinyint NULL, \`answered_at\` datetime NOT NULL, INDEX \`ix_answers_quiz_user\` (\`quiz_id\`, \`user_id\`, \`session_id\`, \`good\`, \`answered_at\`), INDEX \`ix_answers_user_quiz\` (\`user_id\`, \`quiz_id\`, \`session_id\`, \`good\`, \`answered_at\`), UNIQUE INDEX \`uq_answers_session_user_question\` (\`session_id\`, \`user_id\`, \`question_id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`data_sets\` (\`id\` int NOT NULL AUTO_INCREMENT, \`item_type\` varchar(20) NOT NULL, \`owner_user_id\` int NULL, \`owner_api_key_id\` int NULL, \`total_number_of_items\` int NOT NULL, \`number_of_items_per_page\` int NOT NULL, \`parameters\` text NULL, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), \`expires_at\` datetime NOT NULL, INDEX \`ix_data_sets_owner_user\` (\`owner_user_id\`), INDEX \`ix_data_sets_owner_api_key\` (\`owner_api_key_id\`), INDEX \`ix_data_sets_expires_at\` (\`expires_at\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`data_set_items\` (\`data_set_id\` int NOT NULL, \`position\` int NOT NULL, \`item_id\` int NULL, \`user_id\` int NULL, \`quiz_id\` int NULL, \`session_id\` int NULL, \`aggregation_function\` varchar(10) NULL, \`nb_good_answers\` double NULL, \`good_answers_percent\` double NULL, \`percentile\` double NULL, \`nb_answers\` double NULL, \`duration\` double NULL, INDEX \`ix_data_set_items_set_item\` (\`data_set_id\`, \`item_id\`), PRIMARY KEY (\`data_set_id\`, \`position\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`user_groups\` (\`id\` int NOT NULL AUTO_INCREMENT, \`name\` varchar(100) NOT NULL, \`owner_id\` int NOT NULL, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), INDEX \`ix_user_groups_owner_name\` (\`owner_id\`, \`name\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`user_group_members\` (\`group_id\` int NOT NULL, \`user_id\` int NOT NULL, INDEX \`ix_user_group_members_user\` (\`user_id\`), PRIMARY KEY (\`group_id\`, \`user_id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`user_quiz_flags\` (\`user_id\` int NOT NULL, \`quiz_id\` int NOT NULL, \`favorite\` tinyint NOT NULL DEFAULT 0, \`imported\` tinyint NOT NULL DEFAULT 0, INDEX \`ix_user_quiz_flags_quiz\` (\`quiz_id\`), PRIMARY KEY (\`user_id\`, \`quiz_id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`login_failures\` (\`id\` int NOT NULL AUTO_INCREMENT, \`account_hash\` varchar(64) NOT NULL, \`client_ip\` varchar(45) NOT NULL, \`failed_at\` datetime NOT NULL, INDEX \`ix_login_failures_ip\` (\`client_ip\`, \`failed_at\`), INDEX \`ix_login_failures_account\` (\`account_hash\`, \`failed_at\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`CREATE TABLE \`web_sessions\` (\`id\` int NOT NULL AUTO_INCREMENT, \`token_hash\` varchar(64) NOT NULL, \`user_id\` int NOT NULL, \`expires_at\` datetime NOT NULL, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), UNIQUE INDEX \`uq_web_sessions_token_hash\` (\`token_hash\`), INDEX \`ix_web_sessions_user\` (\`user_id\`), INDEX \`ix_web_sessions_expires_at\` (\`expires_at\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`);
        await queryRunner.query(`ALTER TABLE \`api_keys\` ADD CONSTRAINT \`FK_d93cc0e04cac89126b2155ba9bc\` FOREIGN KEY (\`owner_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`access_tokens\` ADD CONSTRAINT \`FK_09ee750a035b06e0c7f0704687e\` FOREIGN KEY (\`user_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`access_tokens\` ADD CONSTRAINT \`FK_6fcb55aaa85a2f5c1824262f1c1\` FOREIGN KEY (\`api_key_id\`) REFERENCES \`api_keys\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`quizzes\` ADD CONSTRAINT \`FK_d00e656ff1e001844e2389ce17b\` FOREIGN KEY (\`author_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`quiz_tags\` ADD CONSTRAINT \`FK_4403ff5db03a0a80e274026af8c\` FOREIGN KEY (\`quiz_id\`) REFERENCES \`quizzes\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`questions\` ADD CONSTRAINT \`FK_46b3c125e02f7242662e4ccb307\` FOREIGN KEY (\`quiz_id\`) REFERENCES \`quizzes\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`sessions\` ADD CONSTRAINT \`FK_9b62a28ab0bc9ab3c882ab55afa\` FOREIGN KEY (\`owner_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`session_attendees\` ADD CONSTRAINT \`FK_d12f3d8a0eb3f9187419b59df42\` FOREIGN KEY (\`session_id\`) REFERENCES \`sessions\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`session_attendees\` ADD CONSTRAINT \`FK_e3a1c05971d90cd6df9b19de3b4\` FOREIGN KEY (\`user_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`session_quizzes\` ADD CONSTRAINT \`FK_f66e78befe1cdaee4479e6380b5\` FOREIGN KEY (\`session_id\`) REFERENCES \`sessions\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`session_quizzes\` ADD CONSTRAINT \`FK_01f1a6b50dc9bb6941b03564b5f\` FOREIGN KEY (\`quiz_id\`) REFERENCES \`quizzes\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`answers\` ADD CONSTRAINT \`FK_505280e8f8b52877fd4565e30b3\` FOREIGN KEY (\`session_id\`) REFERENCES \`sessions\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`answers\` ADD CONSTRAINT \`FK_f4cf663ebeca05b7a12f6a2cc97\` FOREIGN KEY (\`user_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`answers\` ADD CONSTRAINT \`FK_8ea4c6bf363aad821afd679c4c4\` FOREIGN KEY (\`quiz_id\`) REFERENCES \`quizzes\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`answers\` ADD CONSTRAINT \`FK_677120094cf6d3f12df0b9dc5d3\` FOREIGN KEY (\`question_id\`) REFERENCES \`questions\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`user_groups\` ADD CONSTRAINT \`FK_f60cdcccbae12fe7c0e17e311e0\` FOREIGN KEY (\`owner_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`user_group_members\` ADD CONSTRAINT \`FK_0ff9c9893bced1f20a11c992c16\` FOREIGN KEY (\`group_id\`) REFERENCES \`user_groups\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`user_group_members\` ADD CONSTRAINT \`FK_32ba1d353e99d14130486cd34cf\` FOREIGN KEY (\`user_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`user_quiz_flags\` ADD CONSTRAINT \`FK_55ea555122b788f5255ebdcffd9\` FOREIGN KEY (\`user_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`user_quiz_flags\` ADD CONSTRAINT \`FK_04d1641f7987f253847273aec33\` FOREIGN KEY (\`quiz_id\`) REFERENCES \`quizzes\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE \`web_sessions\` ADD CONSTRAINT \`FK_099af5f73522b589358b3d1189f\` FOREIGN KEY (\`user_id\`) REFERENCES \`users\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE \`web_sessions\` DROP FOREIGN KEY \`FK_099af5f73522b589358b3d1189f\``);
        await queryRunner.query(`ALTER TABLE \`user_quiz_flags\` DROP FOREIGN KEY \`FK_04d1641f7987f253847273aec33\``);
        await queryRunner.query(`ALTER TABLE \`user_quiz_flags\` DROP FOREIGN KEY \`FK_55ea555122b788f5255ebdcffd9\``);
        await queryRunner.query(`ALTER TABLE \`user_group_members\` DROP FOREIGN KEY \`FK_32ba1d353e99d14130486cd34cf\``);
        await queryRunner.query(`ALTER TABLE \`user_group_members\` DROP FOREIGN KEY \`FK_0ff9c9893bced1f20a11c992c16\``);
        await queryRunner.query(`ALTER TABLE \`user_groups\` DROP FOREIGN KEY \`FK_f60cdcccbae12fe7c0e17e311e0\``);
        await queryRunner.query(`ALTER TABLE \`answers\` DROP FOREIGN KEY \`FK_677120094cf6d3f12df0b9dc5d3\``);
        await queryRunner.query(`ALTER TABLE \`answers\` DROP FOREIGN KEY \`FK_8ea4c6bf363aad821afd679c4c4\``);
        await queryRunner.query(`ALTER TABLE \`answers\` DROP FOREIGN KEY \`FK_f4cf663ebeca05b7a12f6a2cc97\``);
        await queryRunner.query(`ALTER TABLE \`answers\` DROP FOREIGN KEY \`FK_505280e8f8b52877fd4565e30b3\``);
        await queryRunner.query(`ALTER TABLE \`session_quizzes\` DROP FOREIGN KEY \`FK_01f1a6b50dc9bb6941b03564b5f\``);
        await queryRunner.query(`ALTER TABLE \`session_quizzes\` DROP FOREIGN KEY \`FK_f66e78befe1cdaee4479e6380b5\``);
        await queryRunner.query(`ALTER TABLE \`session_attendees\` DROP FOREIGN KEY \`FK_e3a1c05971d90cd6df9b19de3b4\``);
        await queryRunner.query(`ALTER TABLE \`session_attendees\` DROP FOREIGN KEY \`FK_d12f3d8a0eb3f9187419b59df42\``);
        await queryRunner.query(`ALTER TABLE \`sessions\` DROP FOREIGN KEY \`FK_9b62a28ab0bc9ab3c882ab55afa\``);
        await queryRunner.query(`ALTER TABLE \`questions\` DROP FOREIGN KEY \`FK_46b3c125e02f7242662e4ccb307\``);
        await queryRunner.query(`ALTER TABLE \`quiz_tags\` DROP FOREIGN KEY \`FK_4403ff5db03a0a80e274026af8c\``);
        await queryRunner.query(`ALTER TABLE \`quizzes\` DROP FOREIGN KEY \`FK_d00e656ff1e001844e2389ce17b\``);
        await queryRunner.query(`ALTER TABLE \`access_tokens\` DROP FOREIGN KEY \`FK_6fcb55aaa85a2f5c1824262f1c1\``);
        await queryRunner.query(`ALTER TABLE \`access_tokens\` DROP FOREIGN KEY \`FK_09ee750a035b06e0c7f0704687e\``);
        await queryRunner.query(`ALTER TABLE \`api_keys\` DROP FOREIGN KEY \`FK_d93cc0e04cac89126b2155ba9bc\``);
        await queryRunner.query(`DROP INDEX \`ix_web_sessions_expires_at\` ON \`web_sessions\``);
        await queryRunner.query(`DROP INDEX \`ix_web_sessions_user\` ON \`web_sessions\``);
        await queryRunner.query(`DROP INDEX \`uq_web_sessions_token_hash\` ON \`web_sessions\``);
        await queryRunner.query(`DROP TABLE \`web_sessions\``);
        await queryRunner.query(`DROP INDEX \`ix_login_failures_account\` ON \`login_failures\``);
        await queryRunner.query(`DROP INDEX \`ix_login_failures_ip\` ON \`login_failures\``);
        await queryRunner.query(`DROP TABLE \`login_failures\``);
        await queryRunner.query(`DROP INDEX \`ix_user_quiz_flags_quiz\` ON \`user_quiz_flags\``);
        await queryRunner.query(`DROP TABLE \`user_quiz_flags\``);
        await queryRunner.query(`DROP INDEX \`ix_user_group_members_user\` ON \`user_group_members\``);
        await queryRunner.query(`DROP TABLE \`user_group_members\``);
        await queryRunner.query(`DROP INDEX \`ix_user_groups_owner_name\` ON \`user_groups\``);
        await queryRunner.query(`DROP TABLE \`user_groups\``);
        await queryRunner.query(`DROP INDEX \`ix_data_set_items_set_item\` ON \`data_set_items\``);
        await queryRunner.query(`DROP TABLE \`data_set_items\``);
        await queryRunner.query(`DROP INDEX \`ix_data_sets_expires_at\` ON \`data_sets\``);
        await queryRunner.query(`DROP INDEX \`ix_data_sets_owner_api_key\` ON \`data_sets\``);
        await queryRunner.query(`DROP INDEX \`ix_data_sets_owner_user\` ON \`data_sets\``);
        await queryRunner.query(`DROP TABLE \`data_sets\``);
        await queryRunner.query(`DROP INDEX \`uq_answers_session_user_question\` ON \`answers\``);
        await queryRunner.query(`DROP INDEX \`ix_answers_user_quiz\` ON \`answers\``);
        await queryRunner.query(`DROP INDEX \`ix_answers_quiz_user\` ON \`answers\``);
        await queryRunner.query(`DROP TABLE \`answers\``);
        await queryRunner.query(`DROP INDEX \`ix_session_quizzes_quiz\` ON \`session_quizzes\``);
        await queryRunner.query(`DROP TABLE \`session_quizzes\``);
        await queryRunner.query(`DROP INDEX \`ix_session_attendees_user\` ON \`session_attendees\``);
        await queryRunner.query(`DROP TABLE \`session_attendees\``);
        await queryRunner.query(`DROP INDEX \`ix_sessions_owner\` ON \`sessions\``);
        await queryRunner.query(`DROP TABLE \`sessions\``);
        await queryRunner.query(`DROP INDEX \`uq_questions_quiz_position\` ON \`questions\``);
        await queryRunner.query(`DROP TABLE \`questions\``);
        await queryRunner.query(`DROP INDEX \`ix_quiz_tags_tag\` ON \`quiz_tags\``);
        await queryRunner.query(`DROP TABLE \`quiz_tags\``);
        await queryRunner.query(`DROP INDEX \`ix_quizzes_visibility_creation\` ON \`quizzes\``);
        await queryRunner.query(`DROP INDEX \`ix_quizzes_last_change\` ON \`quizzes\``);
        await queryRunner.query(`DROP INDEX \`ix_quizzes_author\` ON \`quizzes\``);
        await queryRunner.query(`DROP TABLE \`quizzes\``);
        await queryRunner.query(`DROP INDEX \`ix_access_tokens_expires_at\` ON \`access_tokens\``);
        await queryRunner.query(`DROP INDEX \`ix_access_tokens_api_key\` ON \`access_tokens\``);
        await queryRunner.query(`DROP INDEX \`ix_access_tokens_user\` ON \`access_tokens\``);
        await queryRunner.query(`DROP INDEX \`uq_access_tokens_token_hash\` ON \`access_tokens\``);
        await queryRunner.query(`DROP TABLE \`access_tokens\``);
        await queryRunner.query(`DROP INDEX \`ix_api_keys_owner\` ON \`api_keys\``);
        await queryRunner.query(`DROP INDEX \`uq_api_keys_key_hash\` ON \`api_keys\``);
        await queryRunner.query(`DROP TABLE \`api_keys\``);
        await queryRunner.query(`DROP INDEX \`uq_users_email\` ON \`users\``);
        await queryRunner.query(`DROP TABLE \`users\``);
    }

}

import 'reflect-metadata';
import { loadConfig } from './src/config/config';
import { createDataSource } from './src/db/data-source';

// The TypeORM CLI's data source (migration:generate, migration:show); the dialect follows DATABASE_URL.
export const dataSource = createDataSource(loadConfig().database);

import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { graphQLSchema, printGraphQLSchema } from './graphql.schema';

/** `npm run schema:emit`: writes the SDL the drift test compares with the code. */
export const SCHEMA_FILE = path.resolve(__dirname, '../../../schema/schema.graphql');

if (require.main === module) {
  void graphQLSchema().then((schema) => {
    fs.mkdirSync(path.dirname(SCHEMA_FILE), { recursive: true });
    fs.writeFileSync(SCHEMA_FILE, printGraphQLSchema(schema));
    process.stdout.write(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}\n`);
  });
}

import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { graphQLSchema, printGraphQLSchema } from './graphql/graphql.schema';
import { openApiDocument } from './rest/openapi/openapi.document';

/** The emitted contracts; tests fail when they drift from the code. */
export const SCHEMA_FILE = path.resolve(__dirname, '../../schema/schema.graphql');
export const OPENAPI_FILE = path.resolve(__dirname, '../../schema/openapi.json');

export function openApiText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}

/** `npm run schema:emit`: writes both files. */
async function emit(): Promise<void> {
  fs.mkdirSync(path.dirname(SCHEMA_FILE), { recursive: true });
  fs.writeFileSync(SCHEMA_FILE, printGraphQLSchema(await graphQLSchema()));
  fs.writeFileSync(OPENAPI_FILE, openApiText());
  process.stdout.write(
    `wrote ${path.relative(process.cwd(), SCHEMA_FILE)} and ${path.relative(process.cwd(), OPENAPI_FILE)}\n`,
  );
}

if (require.main === module) void emit();

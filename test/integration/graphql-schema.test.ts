import fs from 'node:fs';
import { graphQLSchema, printGraphQLSchema } from '../../src/api/graphql/graphql.schema';
import { SCHEMA_FILE } from '../../src/api/graphql/schema.emit';

describe('schema/schema.graphql', () => {
  it('is the SDL the code builds (run `npm run schema:emit` after changing the GraphQL types)', async () => {
    const committed = fs.readFileSync(SCHEMA_FILE, 'utf8');
    expect(printGraphQLSchema(await graphQLSchema())).toBe(committed);
  });
});

import fs from 'node:fs';
import { graphQLSchema, printGraphQLSchema } from '../../src/api/graphql/graphql.schema';
import { OPENAPI_FILE, SCHEMA_FILE, openApiText } from '../../src/api/contracts.emit';
import { REST_OPERATIONS } from '../../src/api/rest/rest.router';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { validated } from '../helpers/openapi-validator';

describe('emitted contracts (run `npm run schema:emit` after changing the API)', () => {
  it('schema/schema.graphql is the SDL the code builds', async () => {
    expect(printGraphQLSchema(await graphQLSchema())).toBe(fs.readFileSync(SCHEMA_FILE, 'utf8'));
  });

  it('schema/openapi.json describes exactly the REST operations the router serves', () => {
    expect(openApiText()).toBe(fs.readFileSync(OPENAPI_FILE, 'utf8'));
  });
});

describe('every operation of schema/openapi.json', () => {
  let close: () => Promise<void>;
  let app: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    const opened = await openTestDatabase('contracts');
    close = opened.close;
    apiKey = (await createTestApiKey(opened.dataSource, 'localhost')).secret;
    app = await startTestApp(opened.dataSource);
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  it('answers with the documented method, and its answer matches the description', async () => {
    const document = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const paths = Object.entries(document.paths);
    expect(paths.map(([path]) => path.slice(1)).sort()).toEqual(
      REST_OPERATIONS.map((op) => op.name).sort(),
    );
    const before = validated.count;
    for (const [path, methods] of paths) {
      const method = Object.keys(methods)[0].toUpperCase();
      // No operation parameters: each answers its own contract-shaped error (or a page), never
      // UnsupportedRequestException; the helper validates the body against the description.
      const res = await app.get(`${path}?apiKey=${apiKey}`, { method });
      const body = (await res.json()) as { type?: string };
      expect([path, body.type]).not.toEqual([path, 'UnsupportedRequestException']);
      expect(res.status).toBeLessThan(500);
    }
    expect(validated.count - before).toBe(paths.length);
  });
});

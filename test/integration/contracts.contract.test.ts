import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { graphQLSchema, printGraphQLSchema } from '../../src/api/graphql/graphql.schema';
import {
  CLIENT_WIRE_TYPES_FILE,
  OPENAPI_FILE,
  SCHEMA_FILE,
  openApiText,
} from '../../src/api/contracts.emit';
import { REST_OPERATIONS } from '../../src/api/rest/rest.router';
import { startTestApp, type TestApp } from '../helpers/app';
import { loadData } from '../../src/data/import/bulk-loader';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { LIVE_CLASS } from '../helpers/fixtures';
import { ERROR_TABLE } from '../../src/errors';
import { assertMatchesOpenApi, validated } from '../helpers/openapi-validator';

const EMIT_FILE = path.resolve(__dirname, '../../src/api/contracts.emit.ts');

interface Exception {
  type: string;
  message: string;
  operation: string;
  reason: string;
  parameterName?: string;
}

describe('emitted contracts (run `npm run schema:emit` after changing the API)', () => {
  it('schema/schema.graphql is the SDL the code builds', async () => {
    expect(printGraphQLSchema(await graphQLSchema())).toBe(fs.readFileSync(SCHEMA_FILE, 'utf8'));
  });

  it('schema/openapi.json describes exactly the REST operations the router serves', () => {
    expect(openApiText()).toBe(fs.readFileSync(OPENAPI_FILE, 'utf8'));
  });

  it("the client's wire types (packages/client/src/openapi.generated.ts) are generated from schema/openapi.json", async () => {
    // openapi-typescript's modules are ES modules, which Jest's module system does not load.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', EMIT_FILE, '--client-wire-types'],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    expect(stdout).toBe(fs.readFileSync(CLIENT_WIRE_TYPES_FILE, 'utf8'));
  });
});

describe('the error examples of schema/openapi.json', () => {
  it('show, for every documented status, an exception of a type the service answers it with', () => {
    const document = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')) as {
      paths: Record<
        string,
        Record<
          string,
          {
            responses: Record<
              string,
              { content?: Record<string, { examples?: Record<string, { value: Exception }> }> }
            >;
          }
        >
      >;
    };
    const rows = Object.values(ERROR_TABLE);
    let checked = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const { responses } of Object.values(methods)) {
        for (const [status, response] of Object.entries(responses)) {
          if (Number(status) < 400) continue;
          const examples = Object.values(response.content?.['application/json']?.examples ?? {});
          expect([path, status, examples.length > 0]).toEqual([path, status, true]);
          for (const { value } of examples) {
            const row = rows.find((r) => r.type === value.type && r.status === Number(status));
            expect([path, status, value.type, row !== undefined]).toEqual([
              path,
              status,
              value.type,
              true,
            ]);
            expect(value.operation).toBe(path.slice(1));
            expect(value.message).toBe(
              row?.message(value.operation, value.reason, value.parameterName),
            );
            assertMatchesOpenApi(path, Number(status), value);
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(150);
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

type Schema = { type?: string; minimum?: number; maximum?: number; pattern?: string } & {
  enum?: string[];
  items?: Schema;
};
interface QueryParameter {
  name: string;
  in: string;
  required: boolean;
  schema: Schema;
}

/**
 * A value each constraint of the description forbids: below the minimum, above the maximum,
 * outside the enum, not matching the pattern (an identifier 0).
 */
function forbidden(schema: Schema): [string, string][] {
  const values: [string, string][] = [];
  const one = schema.type === 'array' && schema.items ? schema.items : schema;
  if (one.minimum !== undefined) values.push(['minimum', String(one.minimum - 1)]);
  if (one.maximum !== undefined) values.push(['maximum', String(one.maximum + 1)]);
  if (one.enum) values.push(['enum', 'bogus']);
  if (one.pattern) {
    const zero = '0';
    expect(new RegExp(one.pattern).test(zero)).toBe(false);
    values.push(['pattern', zero]);
  }
  return values;
}

describe('what schema/openapi.json declares of the query parameters', () => {
  let close: () => Promise<void>;
  let app: TestApp;
  let credentials: string;
  let valid: Record<string, string>;

  beforeAll(async () => {
    const opened = await openTestDatabase('contracts_enforced');
    close = opened.close;
    const ids = await loadData(opened.dataSource, LIVE_CLASS);
    const key = await createTestApiKey(opened.dataSource, 'localhost');
    const token = await createTestToken(opened.dataSource, Number(ids.users.t), key.id);
    credentials = `apiKey=${key.secret}&accessToken=${token}`;
    app = await startTestApp(opened.dataSource);
    const page = async (query: string) =>
      ((await (await app.get(`/${query}&${credentials}`)).json()) as { dataSetId: string })
        .dataSetId;
    const userSet = await page(`getUserSet?sessionId=${ids.sessions.S}`);
    const quizSet = await page(`getQuizSet?sessionId=${ids.sessions.S}`);
    // A value the service takes for each parameter an operation needs besides the one tried.
    valid = {
      quizId: String(ids.quizzes.q1),
      userId: String(ids.users.p1),
      sessionId: String(ids.sessions.S),
      attributeName: 'title',
      dataSetId: userSet,
      dataSetId1: userSet,
      dataSetId2: userSet,
      operator: 'union',
      userSetId: userSet,
      quizSetId: quizSet,
      // Any well-formed id: the other parameters are checked before the endpoint is looked up.
      webhookId: '1',
    };
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  it('is what the service refuses: ranges, closed sets and identifiers, parameter by parameter', async () => {
    const document = JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')) as {
      paths: Record<string, Record<string, { parameters: QueryParameter[] }>>;
    };
    const refused: string[] = [];
    const expected: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      const get = methods.get;
      if (!get) continue;
      // The required parameters, and a filter where a set needs one.
      const base = get.parameters.filter((parameter) => parameter.required).map(({ name }) => name);
      if (path === '/getUserSet' || path === '/getQuizSet') base.push('sessionId');
      for (const parameter of get.parameters) {
        for (const [constraint, value] of forbidden(parameter.schema)) {
          const others = base.filter((name) => name !== parameter.name);
          const query = [
            ...others.map((name) => `${name}=${valid[name]}`),
            `${parameter.name}=${value}`,
          ];
          const res = await app.get(`${path}?${query.join('&')}&${credentials}`);
          const body = (await res.json()) as { type?: string; parameterName?: string };
          const what = `${path} ${parameter.name} ${constraint} ${value}`;
          expected.push(`${what}: 400 BadParameterException`);
          refused.push(
            `${what}: ${res.status} ${body.type}${body.parameterName === parameter.name ? '' : ` on ${body.parameterName}`}`,
          );
        }
      }
    }
    expect(refused.length).toBeGreaterThan(20);
    expect(refused).toEqual(expected);
  });
});

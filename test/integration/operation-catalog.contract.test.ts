import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, isNonNullType, type GraphQLField, type GraphQLObjectType } from 'graphql';
import ts from 'typescript';
import type { DataSource } from 'typeorm';
import { graphQLSchema } from '../../src/api/graphql/graphql.schema';
import {
  ROOT_FIELD_OUTPUTS,
  rootFieldsInCatalogOrder,
} from '../../src/api/graphql/resolvers/catalog.resolver';
import { openApiDocument } from '../../src/api/rest/openapi/openapi.document';
import {
  OPERATION_CATALOG,
  OPERATIONS,
  REST_CATALOG,
} from '../../src/api/operations/operation-catalog';
import {
  isDownload,
  type OperationDefinition,
  type ParameterDefinition,
} from '../../src/api/operations/operation-definition';
import { loadData } from '../../src/data/import/bulk-loader';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { ONE_PUBLIC_QUIZ } from '../helpers/fixtures';
import { graphql } from '../helpers/graphql';
import { liveClient, LiveSubscription } from '../helpers/live';
import { expectParity, type ParityOperation } from '../helpers/parity';

/**
 * The operation catalog (src/api/operations) is the one declaration of each operation; what
 * cannot be derived from it at runtime (type-graphql's decorators, the client's types) is held
 * to it here, and both wires are checked to run it alike.
 */

const withGraphQL = OPERATION_CATALOG.filter((operation) => operation.graphQL);

/** The GraphQL type of a parameter's argument, as the SDL prints it. */
const expectedType = (parameter: ParameterDefinition) =>
  `${parameter.graphQLType}${parameter.required ? '!' : ''}`;

describe('the GraphQL schema against the catalog', () => {
  let roots: Record<'query' | 'mutation' | 'subscription', GraphQLObjectType>;

  beforeAll(async () => {
    const schema = await graphQLSchema();
    roots = {
      query: schema.getQueryType() as GraphQLObjectType,
      mutation: schema.getMutationType() as GraphQLObjectType,
      subscription: schema.getSubscriptionType() as GraphQLObjectType,
    };
  });

  /**
   * apiKey and accessToken are no arguments: they travel in headers or the query string of
   * /graphql (contract.md §3), for every field at once. A default value (pageIndex = 1) is the
   * service's default said in the SDL, so the argument stays optional.
   */
  it.each(withGraphQL.map((operation) => [operation.name, operation] as const))(
    '%s: a root field of its kind with the catalog parameters as arguments, of their types',
    (_name, operation) => {
      const field = roots[operation.graphQL ?? 'query'].getFields()[operation.name] as
        GraphQLField<unknown, unknown> | undefined;
      expect(field).toBeDefined();
      const args = Object.fromEntries(
        (field?.args ?? []).map((arg) => [
          arg.name,
          // An argument with a default is not required, whatever its type says.
          arg.defaultValue === undefined || !isNonNullType(arg.type)
            ? String(arg.type)
            : String(arg.type.ofType),
        ]),
      );
      const parameters: readonly ParameterDefinition[] = operation.parameters;
      expect(args).toStrictEqual(
        Object.fromEntries(
          parameters.map((parameter) => [parameter.name, expectedType(parameter)]),
        ),
      );
      // Root fields are nullable: one failing field does not hide the others (contract.md §11).
      // A subscription selects one root field, so none is hidden: sessionResults is the
      // contract's `[ComputedResult!]!` (§10), a message with an error has no data.
      expect(isNonNullType(field?.type)).toBe(operation.graphQL === 'subscription');
    },
  );

  it('has no root field the catalog does not declare (each has a cost and a token rule)', () => {
    for (const kind of ['query', 'mutation', 'subscription'] as const) {
      const declared = withGraphQL
        .filter((operation) => operation.graphQL === kind)
        .map((operation) => operation.name);
      expect(Object.keys(roots[kind].getFields()).sort()).toStrictEqual(declared.sort());
    }
  });
});

const CLIENT = path.resolve(__dirname, '../../packages/client/src/quiz-api-client.ts');
const CLIENT_WIRE_TYPES = path.resolve(__dirname, '../../packages/client/src/openapi.generated.ts');

/** The client's sources as TypeScript sees them (its own settings: strict, no Node types). */
function clientProgram(): {
  checker: ts.TypeChecker;
  client: ts.ClassDeclaration;
  wireTypes: ts.SourceFile;
} {
  const program = ts.createProgram([CLIENT, CLIENT_WIRE_TYPES], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    noEmit: true,
    skipLibCheck: true,
  });
  const source = program.getSourceFile(CLIENT) as ts.SourceFile;
  const client = source.statements.find(
    (node): node is ts.ClassDeclaration =>
      ts.isClassDeclaration(node) && node.name?.text === 'QuizApiClient',
  ) as ts.ClassDeclaration;
  const wireTypes = program.getSourceFile(CLIENT_WIRE_TYPES) as ts.SourceFile;
  return { checker: program.getTypeChecker(), client, wireTypes };
}

/** The client method of an operation: its name, or watch<Name> for a subscription. */
const clientMethodName = (operation: OperationDefinition) =>
  operation.graphQL === 'subscription'
    ? `watch${operation.name.charAt(0).toUpperCase()}${operation.name.slice(1)}`
    : operation.name;

describe('the client against the catalog', () => {
  /** The property names of the parameter object of each client method (TypeScript's view). */
  function clientParameters(): Map<string, string[]> {
    const { checker, client } = clientProgram();
    const methods = new Map<string, string[]>();
    for (const member of client.members) {
      if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
      const [parameter] = member.parameters;
      let type = parameter ? checker.getTypeAtLocation(parameter) : undefined;
      // getResults<P extends GetResultsParams>(params: P): the constraint's properties.
      if (type?.isTypeParameter()) type = checker.getBaseConstraintOfType(type) ?? type;
      const names = type
        ? checker.getPropertiesOfType(checker.getNonNullableType(type)).map((p) => p.name)
        : [];
      methods.set(member.name.text, names.sort());
    }
    return methods;
  }

  it('has a method for every REST operation, whose parameter object has its parameters', () => {
    const methods = clientParameters();
    for (const operation of REST_CATALOG) {
      const parameters: readonly ParameterDefinition[] = operation.parameters;
      expect([operation.name, methods.get(operation.name)]).toStrictEqual([
        operation.name,
        parameters.map((parameter) => parameter.name).sort(),
      ]);
    }
  });

  it('has a watch method for every subscription (GraphQL only), whose parameter object has its parameters', () => {
    const methods = clientParameters();
    const subscriptions = OPERATION_CATALOG.filter(
      (operation) => operation.graphQL === 'subscription',
    );
    expect(subscriptions.length).toBeGreaterThan(0);
    for (const operation of subscriptions) {
      const method = clientMethodName(operation);
      const parameters: readonly ParameterDefinition[] = operation.parameters;
      expect([method, methods.get(method)]).toStrictEqual([
        method,
        parameters.map((parameter) => parameter.name).sort(),
      ]);
    }
  });
});

/**
 * The steps the comment above OPERATIONS lists, for every operation: each missed one fails here
 * by the operation's name (the root fields and client methods are held above, the REST route
 * and both wires below, schema/ and the client's wire types in contracts.contract.test.ts).
 */
describe('every operation has each step of the catalog comment', () => {
  const SCHEMA_DIR = path.resolve(__dirname, '../../schema');
  const schemas = (openApiDocument() as { components: { schemas: Record<string, unknown> } })
    .components.schemas;

  /** The component schemas of an operation's 200 answer on REST. */
  function outputSchemas(operation: OperationDefinition): string[] {
    const { rest } = operation;
    if (!rest) return [];
    return isDownload(rest) ? Object.values(rest.schemas ?? {}) : [rest.response];
  }

  it("files each operation under its own name in its area's record", () => {
    const misfiled = Object.entries(OPERATIONS)
      .filter(([key, operation]) => key !== operation.name)
      .map(([key, operation]) => `${key} holds ${operation.name}`);
    expect(misfiled).toStrictEqual([]);
  });

  it('builds the root fields in the catalog order, each once', () => {
    expect(ROOT_FIELD_OUTPUTS.map(([name]) => name)).toStrictEqual(
      OPERATION_CATALOG.map(({ name }) => name).filter((name) =>
        ROOT_FIELD_OUTPUTS.some(([field]) => field === name),
      ),
    );
    expect(ROOT_FIELD_OUTPUTS.length).toBeGreaterThan(20);
    const [[, getQuiz]] = ROOT_FIELD_OUTPUTS;
    expect(() => rootFieldsInCatalogOrder([{ getQuiz }, { getQuiz }])).toThrow(
      'getQuiz: a root field listed twice',
    );
    expect(() => rootFieldsInCatalogOrder([{ noSuchOperation: getQuiz } as never])).toThrow(
      'a root field names no operation',
    );
  });

  const withOutput = REST_CATALOG.filter((operation) => outputSchemas(operation).length > 0);

  it.each(withOutput.map((operation) => [operation.name, operation] as const))(
    '%s: its answer is a component schema of the OpenAPI description',
    (_name, operation) => {
      for (const schema of outputSchemas(operation)) {
        expect([schema, Object.hasOwn(schemas, schema)]).toStrictEqual([schema, true]);
      }
    },
  );

  it('the client types each answer: its method returns a typed promise, and the generated wire types hold the schema', () => {
    const { checker, client, wireTypes } = clientProgram();
    const generated = checker
      .getExportsOfModule(checker.getSymbolAtLocation(wireTypes) as ts.Symbol)
      .find((symbol) => symbol.name === 'components');
    expect(generated).toBeDefined();
    const components = checker.getDeclaredTypeOfSymbol(generated as ts.Symbol);
    const schemasType = checker.getTypeOfSymbol(
      checker.getPropertyOfType(components, 'schemas') as ts.Symbol,
    );
    const generatedNames = new Set(
      checker.getPropertiesOfType(schemasType).map((symbol) => symbol.name),
    );
    const methods = new Map(
      client.members
        .filter(ts.isMethodDeclaration)
        .map((member) => [member.name.getText(), member] as const),
    );
    for (const operation of REST_CATALOG) {
      for (const schema of outputSchemas(operation)) {
        expect([operation.name, schema, generatedNames.has(schema)]).toStrictEqual([
          operation.name,
          schema,
          true,
        ]);
      }
      const method = methods.get(clientMethodName(operation));
      expect([operation.name, method !== undefined]).toStrictEqual([operation.name, true]);
      const signature = checker.getSignatureFromDeclaration(method as ts.MethodDeclaration);
      const answer = checker.getAwaitedType(
        checker.getReturnTypeOfSignature(signature as ts.Signature),
      );
      const untyped = ts.TypeFlags.Any | ts.TypeFlags.Unknown;
      expect([operation.name, Boolean((answer?.flags ?? untyped) & untyped)]).toStrictEqual([
        operation.name,
        false,
      ]);
    }
  });

  it('names each operation added since the published baseline in schema/CHANGELOG.md under Unreleased', () => {
    const published = {
      paths: Object.keys(
        (
          JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, 'published/openapi.json'), 'utf8')) as {
            paths: Record<string, unknown>;
          }
        ).paths,
      ),
      sdl: buildSchema(fs.readFileSync(path.join(SCHEMA_DIR, 'published/schema.graphql'), 'utf8')),
    };
    const rootFields = new Set(
      [
        published.sdl.getQueryType(),
        published.sdl.getMutationType(),
        published.sdl.getSubscriptionType(),
      ].flatMap((root) => Object.keys(root?.getFields() ?? {})),
    );
    const changelog = fs.readFileSync(path.join(SCHEMA_DIR, 'CHANGELOG.md'), 'utf8');
    const unreleased = changelog.slice(
      changelog.indexOf('## Unreleased'),
      changelog.indexOf('\n## ', changelog.indexOf('## Unreleased') + 1),
    );
    const added = OPERATION_CATALOG.filter(
      (operation) =>
        !published.paths.includes(`/${operation.name}`) && !rootFields.has(operation.name),
    );
    expect(added.length).toBeGreaterThan(0);
    for (const operation of added) {
      expect([operation.name, unreleased.includes(`\`${operation.name}\``)]).toStrictEqual([
        operation.name,
        true,
      ]);
    }
  });
});

describe('both wires against the catalog', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let quizId: string;
  const credentials = { anonymous: '', teacher: '' };
  let anonymousKey: string;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('catalog'));
    const ids = await loadData(dataSource, ONE_PUBLIC_QUIZ);
    quizId = ids.quizzes.q;
    const key = await createTestApiKey(dataSource, 'localhost');
    anonymousKey = key.secret;
    credentials.anonymous = `apiKey=${key.secret}`;
    const token = await createTestToken(dataSource, Number(ids.users.t), key.id);
    credentials.teacher = `${credentials.anonymous}&accessToken=${token}`;
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  /** A value of each required parameter that gets past its parsing (the call may still fail). */
  function sample(operation: OperationDefinition): Record<string, string> {
    const parameters: readonly ParameterDefinition[] = operation.parameters;
    const values: Record<string, string> = {
      quizId,
      attributeName: 'title',
      quiz: JSON.stringify({ title: 'A quiz', visibility: 'public', survey: false, tags: ['a'] }),
      // A clientRef makes the second call find the session the first made.
      session: JSON.stringify({ title: 'A session', quizIds: [quizId], clientRef: 'catalog' }),
      answers: JSON.stringify([{ userId: '1', quizId, questionIndex: 0, answer: 0 }]),
      // A name that resolves nowhere: refused on `webhook.url` alike on both wires.
      webhook: JSON.stringify({ url: 'https://hooks.invalid/catalog' }),
    };
    return Object.fromEntries(
      parameters
        .filter((parameter) => parameter.required)
        .map((parameter) => [
          parameter.name,
          values[parameter.name] ?? parameter.values?.[0] ?? '999999',
        ]),
    );
  }

  // A download answers a file, not the JSON parity compares: exportPersonalData's two wires are
  // compared in test/integration/personal-data-export.contract.test.ts (each export also adds
  // an entry about the person to the document it gives).
  const onBothWires = REST_CATALOG.filter(
    (operation) => operation.graphQL && operation.rest && !isDownload(operation.rest),
  ).map((operation) => [operation.name, operation] as const);

  it.each(onBothWires)(
    '%s: the same outcome on REST and GraphQL, without parameters and with each required one',
    async (name, operation) => {
      for (const who of ['anonymous', 'teacher'] as const) {
        // Without a required argument GraphQL refuses the document before any field runs,
        // where REST tells an anonymous requester first that a token is needed.
        if (who === 'teacher' || operation.token !== 'required') {
          await expectParity(app.url, name as ParityOperation, {}, credentials[who]);
        }
        await expectParity(app.url, name as ParityOperation, sample(operation), credentials[who]);
      }
    },
  );

  it.each(OPERATION_CATALOG.map((operation) => [operation.name, operation] as const))(
    '%s: refuses an anonymous requester on both wires when the catalog says a token is required, only then',
    async (name, operation) => {
      const params = new URLSearchParams(sample(operation)).toString();
      const answers: { status: number; type?: unknown; reason?: unknown }[] = [];
      if (operation.rest) {
        const res = await fetch(`${app.url}/${name}?${params}&${credentials.anonymous}`, {
          method: operation.rest.methods[0],
        });
        const body = (await res.json()) as Record<string, unknown>;
        answers.push({ status: res.status, type: body.type, reason: body.reason });
      }
      if (operation.graphQL) {
        const given = sample(operation);
        const parameters = operation.parameters.filter((parameter) => parameter.name in given);
        const declared = parameters.map((p) => `$${p.name}: ${expectedType(p)}`).join(', ');
        const passed = parameters.map(({ name: arg }) => `${arg}: $${arg}`).join(', ');
        const selection = operation.graphQL === 'subscription' ? '{ id }' : '{ __typename }';
        const document =
          `${operation.graphQL}${declared ? ` (${declared})` : ''} ` +
          `{ ${name}${passed ? `(${passed})` : ''} ${selection} }`;
        const variables = Object.fromEntries(
          Object.entries(given).map(([key, value]) => [
            key,
            operation.parameters.some((p) => p.name === key && p.rest === 'json')
              ? (JSON.parse(value) as unknown)
              : value,
          ]),
        );
        let errors;
        if (operation.graphQL === 'subscription') {
          // Served over WebSocket only, the key in connection_init and no token.
          const client = liveClient(app.url, { connectionParams: { apiKey: anonymousKey } });
          const subscription = new LiveSubscription(client, document, variables);
          await subscription.ended;
          await client.dispose();
          errors = subscription.received[0]?.result.errors;
        } else {
          const { body } = await graphql(app.url, document, {
            variables,
            search: `?${credentials.anonymous}`,
          });
          errors = body.errors;
        }
        const extensions = errors?.[0]?.extensions ?? {};
        answers.push({
          status: extensions.code === 'UNAUTHENTICATED' ? 401 : 0,
          type: extensions.type,
          reason: extensions.reason,
        });
      }
      expect(answers.length).toBeGreaterThan(0);
      for (const answer of answers) {
        if (operation.token === 'required') {
          expect(answer).toStrictEqual({
            status: 401,
            type: 'UnauthorizedOperationException',
            reason: operation.tokenReason ?? 'an access token is required',
          });
        } else if (operation.token === 'optional') {
          expect(answer.status).not.toBe(401);
        }
      }
    },
  );
});

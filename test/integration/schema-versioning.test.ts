import fs from 'node:fs';
import path from 'node:path';
import { graphQLSchema, printGraphQLSchema } from '../../src/api/graphql/graphql.schema';
import { openApiText } from '../../src/api/contracts.emit';
import {
  SCHEMA_DIR,
  checkVersioning,
  formatUnrecorded,
  readSchemaFiles,
  recordedKeys,
  type SchemaFiles,
} from '../helpers/schema-diff';

const published = readSchemaFiles(path.join(SCHEMA_DIR, 'published'));
const CHANGELOG = fs.readFileSync(path.join(SCHEMA_DIR, 'CHANGELOG.md'), 'utf8');

/** A changelog whose Unreleased section records exactly these entries. */
function changelogWith(...entries: string[]): string {
  return `# Changelog\n\n## Unreleased\n\n### Breaking\n${entries.join('\n')}\n\n## 2b47084 (baseline)\n`;
}

/** The published SDL with one line removed; fails loudly if the line is not there. */
function sdlWithout(line: RegExp): string {
  const lines = published.graphql.split('\n');
  const index = lines.findIndex((l) => line.test(l));
  expect(index).toBeGreaterThanOrEqual(0);
  return [...lines.slice(0, index), ...lines.slice(index + 1)].join('\n');
}

type OpenApi = {
  paths: Record<
    string,
    Record<string, { parameters: Array<{ name: string; required?: boolean }> }>
  >;
  components: {
    schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }>;
  };
};

function openApiEdited(edit: (doc: OpenApi) => void): string {
  const doc = JSON.parse(published.openapi) as OpenApi;
  edit(doc);
  return JSON.stringify(doc);
}

describe('the versioning check (contract §15)', () => {
  it('finds every breaking change of the code against schema/published recorded in schema/CHANGELOG.md', async () => {
    const current: SchemaFiles = {
      graphql: printGraphQLSchema(await graphQLSchema()),
      openapi: openApiText(),
    };
    const report = await checkVersioning({ published, current, changelog: CHANGELOG });
    // The message lists the lines to add: `npm run schema:check` prints the same.
    expect(formatUnrecorded(report)).toBe('');
  });

  it('compares the published baseline with itself and finds nothing', async () => {
    const report = await checkVersioning({
      published,
      current: published,
      changelog: changelogWith(),
    });
    expect(report.breaking).toEqual([]);
  });

  it('fails on a field removed from the SDL, and passes once the changelog records it', async () => {
    const current = { ...published, graphql: sdlWithout(/^ {2}nbAttendees: Int$/) };
    const unrecorded = await checkVersioning({ published, current, changelog: changelogWith() });
    expect(unrecorded.unrecorded).toEqual([
      { key: 'Session.nbAttendees', reason: expect.stringContaining("'nbAttendees' was removed") },
    ]);
    expect(formatUnrecorded(unrecorded)).toContain('- `Session.nbAttendees`: ');

    const recorded = await checkVersioning({
      published,
      current,
      changelog: changelogWith('- `Session.nbAttendees`: removed; count the attendees instead.'),
    });
    expect(recorded.breaking.map((c) => c.key)).toEqual(['Session.nbAttendees']);
    expect(recorded.unrecorded).toEqual([]);
  });

  it('fails on a newly required GraphQL argument and on a narrowed input type', async () => {
    const current = {
      ...published,
      graphql: published.graphql
        .replace(/^( {2}getSession\(sessionId: ID)!\)/m, '$1!, since: Int!)')
        .replace(/^( {2}attendeeIds: \[ID!\])$/m, '$1!'),
    };
    expect(current.graphql).not.toBe(published.graphql);
    const report = await checkVersioning({ published, current, changelog: changelogWith() });
    expect(report.unrecorded.map((c) => c.key).sort()).toEqual(
      ['Query.getSession.since', 'SessionInput.attendeeIds'].sort(),
    );
  });

  it('fails on a removed OpenAPI parameter and a removed response field, and passes once both are recorded', async () => {
    const current = {
      ...published,
      openapi: openApiEdited((doc) => {
        const get = doc.paths['/getResults'].get;
        get.parameters = get.parameters.filter((p) => p.name !== 'sessionId');
        delete doc.components.schemas.User.properties.lastName;
      }),
    };
    const report = await checkVersioning({ published, current, changelog: changelogWith() });
    expect(report.unrecorded).toEqual([
      { key: 'GET /getResults parameter sessionId', reason: 'removed' },
      { key: 'OpenAPI User.lastName', reason: 'removed' },
    ]);

    const partly = changelogWith('- `GET /getResults parameter sessionId`: use sessionIds.');
    expect((await checkVersioning({ published, current, changelog: partly })).unrecorded).toEqual([
      { key: 'OpenAPI User.lastName', reason: 'removed' },
    ]);
    const both = changelogWith(
      '- `GET /getResults parameter sessionId`: use sessionIds.',
      '- `OpenAPI User.lastName`: no longer returned.',
    );
    expect((await checkVersioning({ published, current, changelog: both })).unrecorded).toEqual([]);
  });

  it('fails on a parameter made required and on a closed set narrowing a request value', async () => {
    const current = {
      ...published,
      openapi: openApiEdited((doc) => {
        const get = doc.paths['/getResults'].get;
        const groupBy = get.parameters.find((p) => p.name === 'groupBy') as Record<string, unknown>;
        groupBy.required = true;
        const sessionId = get.parameters.find((p) => p.name === 'sessionId') as Record<
          string,
          unknown
        >;
        sessionId.schema = { type: 'string', enum: ['1', '2'] };
      }),
    };
    const report = await checkVersioning({ published, current, changelog: changelogWith() });
    expect(report.unrecorded.map((c) => `${c.key}: ${c.reason}`)).toEqual([
      'GET /getResults parameter groupBy: newly required',
      expect.stringMatching(/^GET \/getResults parameter sessionId: narrowed to the values/),
    ]);
  });

  it('counts only entries of the Unreleased section that have a description', () => {
    const keys = recordedKeys(
      [
        '## Unreleased',
        '- `A.b`: removed, use A.c',
        '- `A.c`',
        '* `GET /x parameter y` — renamed z',
        '- `Q.one`, `Q.two`: both typed',
        '- `Q.three` `Q.four`: not a list of keys',
        '## 1.0.0',
        '- `Old.field`: released long ago',
      ].join('\n'),
    );
    expect([...keys].sort()).toEqual(['A.b', 'GET /x parameter y', 'Q.one', 'Q.two']);
  });
});

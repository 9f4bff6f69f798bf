import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { DataSource } from 'typeorm';
import { runCli } from '../../src/cli/cli';
import { loadConfig } from '../../src/config/config';
import { databaseOf } from '../../src/db/database';
import { insertWebhookEndpoint } from '../../src/db/webhook-endpoints.store';
import { createSecretBox } from '../../src/security/secret-box';
import { newWebhookSecret } from '../../src/services/webhooks/webhook-signing';
import { createAppDeps, operatorContext } from '../../src/context/request-context';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { openDatabase } from '../../src/db/data-source';
import { dialectOf } from '../../src/db/sql/dialect';
import { PERSONAL_DATA_REGISTRY } from '../../src/domain/privacy/personal-data.registry';
import { personalDataText } from '../../src/api/operations/shapes/personal-data.serializer';
import { createLogger } from '../../src/observability/logger';
import { recordAccess, subjectsById } from '../../src/services/access-log/access-log.service';
import { exportPersonalDataOf } from '../../src/services/privacy/personal-data-export.service';
import { QuizApiClient } from '@quiz-results/client';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend, TEST_SERVER_URL } from '../helpers/database';
import { graphql } from '../helpers/graphql';
import { PERSONAL_DATA_QUERY, comparable, type Doc, type Row } from '../helpers/personal-data';
import { EXPORT_WORLD, registryChecks } from '../helpers/personal-data-checks';

/**
 * exportPersonalData (contract.md §14.3) on REST, GraphQL and the CLI: one pupil who answered in
 * two teachers' sessions, is in their groups, flagged quizzes, has an API key, made sets and was
 * read by a teacher. Each export is held to what the database holds about the person, table by
 * table of the registry of personal data.
 */

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe.each(BACKENDS)('exportPersonalData on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let databaseUrl: string;
  let app: TestApp;
  let ids: IdMap;
  let apiKey: string;
  const tokens: Record<string, string> = {};
  const userId = (ref: string) => Number(ids.users[ref]);
  const rows = (sql: string, params: unknown[] = []) =>
    dataSource.query(sql, params) as Promise<Row[]>;
  const credentials = (ref: string) => `apiKey=${apiKey}&accessToken=${tokens[ref]}`;

  async function rest(ref: string | null, operation: string, params: Record<string, string> = {}) {
    const query = new URLSearchParams({
      apiKey,
      ...(ref ? { accessToken: tokens[ref] } : {}),
      ...params,
    });
    return app.get(`/${operation}?${query}`);
  }

  async function restExport(ref: string): Promise<{ doc: Doc; text: string; requestId: string }> {
    const res = await rest(ref, 'exportPersonalData');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="personal-data-${userId(ref)}.json"`,
    );
    const text = await res.text();
    return {
      doc: JSON.parse(text) as Doc,
      text,
      requestId: String(res.headers.get('x-request-id')),
    };
  }

  async function cli(argv: string[]) {
    const stdout = new Capture();
    const stderr = new Capture();
    const code = await runCli(argv, {
      stdout,
      stderr,
      env: { DATABASE_URL: databaseUrl, NODE_ENV: 'test' },
    });
    return { code, stdout: stdout.text, stderr: stderr.text };
  }

  const checkAgainstDatabase = (doc: Doc, text: string, user: number) =>
    registryChecks(rows, dialectOf(dataSource)).check(doc, text, user);

  beforeAll(async () => {
    if (backend === 'SQLite') {
      // A file, not memory: the CLI opens the same database.
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'personal-export-'));
      const file = path.join(folder, 'quiz.sqlite');
      dataSource = await openDatabase({
        dialect: 'sqlite',
        sqlitePath: file,
        embedded: false,
        poolSize: 1,
        migrateOnStart: true,
      });
      databaseUrl = `sqlite:${file}`;
      close = async () => {
        if (dataSource.isInitialized) await dataSource.destroy();
        fs.rmSync(folder, { recursive: true, force: true });
      };
    } else {
      ({ dataSource, close } = await openBackend(backend, 'personal_export'));
      const [{ name }] = (await dataSource.query('SELECT DATABASE() AS name')) as {
        name: string;
      }[];
      databaseUrl = `${TEST_SERVER_URL}/${name}`;
    }
    ids = await loadData(dataSource, EXPORT_WORLD);
    const key = await createTestApiKey(dataSource, 'localhost');
    apiKey = key.secret;
    for (const ref of ['t1', 't2', 'p', 'o'])
      tokens[ref] = await createTestToken(dataSource, userId(ref), key.id);
    // The pupil's own key, for an app of theirs.
    await createTestApiKey(dataSource, 'primrose-app.example', userId('p'));
    // The pupil's webhook endpoint (exported without its secret).
    const box = createSecretBox(loadConfig({ NODE_ENV: 'test' }).webhooks.secretKey);
    await insertWebhookEndpoint(
      databaseOf(dataSource),
      { ownerId: userId('p'), url: 'https://primrose-app.example/hook', events: 'quiz.created' },
      (id) => box.seal(newWebhookSecret(), String(id)),
    );
    app = await startTestApp(dataSource);
    // Sets the pupil made: one kept, one expired (not exported).
    expect((await rest('p', 'getUserGroupSet')).status).toBe(200);
    const expired = (await (await rest('p', 'getQuizSet', { author: ids.users.t1 })).json()) as {
      dataSetId: string;
    };
    const past = dialectOf(dataSource).date(new Date(Date.now() - 60_000));
    await dataSource.query('UPDATE data_sets SET expires_at = ? WHERE id = ?', [
      past,
      Number(expired.dataSetId),
    ]);
    // A teacher's results of session S1 (they name the pupil; not the pupil's sets).
    const sessionId = ids.sessions.S1;
    const users = (await (await rest('t1', 'getUserSet', { sessionId })).json()) as {
      dataSetId: string;
    };
    const quizzes = (await (await rest('t1', 'getQuizSet', { sessionId })).json()) as {
      dataSetId: string;
    };
    const results = await rest('t1', 'getResults', {
      userSetId: users.dataSetId,
      quizSetId: quizzes.dataSetId,
    });
    expect(results.status).toBe(200);
    // Reads a teacher made of the pupil's data, and of another pupil.
    const deps = app.deps;
    const read = (subject: string, requestId: string) =>
      recordAccess(
        {
          db: deps.db,
          requester: { kind: 'user', userId: userId('t2'), apiKeyId: key.id },
          operation: 'getUser',
          requestId,
        },
        subjectsById([userId(subject)]),
      );
    await read('p', 'fixture-read-of-p');
    await read('o', 'fixture-read-of-o');
  });

  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  it('REST streams everything the database holds about the pupil, table by table of the registry', async () => {
    const personTables = PERSONAL_DATA_REGISTRY.filter((entry) =>
      Object.values(entry.columns).some((column) => column.category === 'person'),
    );
    // A new table naming a person fails here until the export (or this check) covers it.
    expect(registryChecks(rows, dialectOf(dataSource)).tables.sort()).toEqual(
      personTables.map((entry) => entry.table).sort(),
    );
    for (const table of ['access_tokens', 'web_sessions']) {
      expect(personTables.find((entry) => entry.table === table)?.export).toMatch(/^not exported/);
    }
    const { doc, text, requestId } = await restExport('p');
    await checkAgainstDatabase(doc, text, userId('p'));
    // What the fixture made, so the checks above compared something.
    expect(doc.answers).toHaveLength(6);
    expect(new Set(doc.answers.map((a) => a.sessionId))).toEqual(
      new Set([ids.sessions.S1, ids.sessions.S2]),
    );
    expect(doc.answers.find((a) => a.value === 'Marmalade-Zeppelin-42')).toMatchObject({
      good: false,
      questionIndex: 1,
    });
    expect(doc.groups.memberOf.map((g) => g.name).sort()).toEqual(['Chess club', 'Class 5A']);
    expect(doc.attendances.find((a) => a.sessionId === ids.sessions.S1)?.raisedHand).toBe(true);
    expect(doc.quizFlags).toHaveLength(2);
    expect(doc.apiKeys).toEqual([
      expect.objectContaining({ host: 'primrose-app.example', revokedAt: null }),
    ]);
    expect(doc.webhooks).toEqual([
      expect.objectContaining({
        url: 'https://primrose-app.example/hook',
        events: ['quiz.created'],
        disabledAt: null,
      }),
    ]);
    expect(doc.dataSets).toHaveLength(1);
    expect(doc.accessLog.map((e) => e.requestId)).toContain('fixture-read-of-p');
    expect(doc.accessLog.map((e) => e.requestId)).not.toContain('fixture-read-of-o');
    // The export itself is one entry: this request, by the pupil, about the pupil.
    const logged = await rows(
      'SELECT operation, requester_user_id, subject_user_id FROM access_log WHERE request_id = ?',
      [requestId],
    );
    expect(
      logged.map((r) => [r.operation, Number(r.requester_user_id), Number(r.subject_user_id)]),
    ).toEqual([['exportPersonalData', userId('p'), userId('p')]]);
    expect(doc.accessLog.at(-1)).toMatchObject({
      requestId,
      operation: 'exportPersonalData',
      requesterUserId: ids.users.p,
    });
  });

  it('GraphQL, the CLI and the client give the same document as REST', async () => {
    const { doc: viaRest } = await restExport('p');
    const { status, body } = await graphql(app.url, PERSONAL_DATA_QUERY, {
      search: `?${credentials('p')}`,
    });
    expect([status, body.errors]).toEqual([200, undefined]);
    const viaGraphQL = body.data?.exportPersonalData as Doc;
    expect(comparable(viaGraphQL)).toEqual(comparable(viaRest));

    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'user-export-')), 'p.json');
    const toFile = await cli(['user:export', '--user', ids.users.p, '--out', out]);
    expect([toFile.code, toFile.stderr, toFile.stdout]).toEqual([0, '', '']);
    const viaCliFile = JSON.parse(fs.readFileSync(out, 'utf8')) as Doc;
    expect(comparable(viaCliFile)).toEqual(comparable(viaRest));
    const toStdout = await cli(['user:export', '--user', 'primrose.vantwest@export.example']);
    expect([toStdout.code, toStdout.stderr]).toEqual([0, '']);
    const viaCli = JSON.parse(toStdout.stdout) as Doc;
    expect(comparable(viaCli)).toEqual(comparable(viaRest));
    await checkAgainstDatabase(viaCli, toStdout.stdout, userId('p'));
    // The CLI's entries: the operator's, without a user or key.
    const [entry] = await rows(
      "SELECT requester_user_id, requester_api_key_id FROM access_log WHERE operation = 'user:export' ORDER BY id DESC",
    );
    expect([entry.requester_user_id, entry.requester_api_key_id]).toEqual([null, null]);

    // Pages of two rows: the keyset paging reads every row once, in order.
    const deps = createAppDeps(app.config, dataSource, createLogger('silent'));
    const paged = await exportPersonalDataOf(operatorContext(deps, 'user:export'), ids.users.p, {
      pageSize: 2,
    });
    let text = '';
    for await (const chunk of personalDataText(paged)) text += chunk;
    expect(comparable(JSON.parse(text) as Doc)).toEqual(comparable(viaRest));

    const client = new QuizApiClient({ baseUrl: app.url, apiKey, accessToken: tokens.p });
    const viaClient = await client.exportPersonalData();
    expect(viaClient.profile.createdAt).toBeInstanceOf(Date);
    expect(viaClient.answers[0].answeredAt).toBeInstanceOf(Date);
    expect(viaClient.answers.map((a) => a.id)).toEqual(viaRest.answers.map((a) => a.id));
  });

  it('needs a token: anonymous requests are refused on both wires', async () => {
    const res = await rest(null, 'exportPersonalData');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      type: 'UnauthorizedOperationException',
      operation: 'exportPersonalData',
    });
    const { body } = await graphql(app.url, '{ exportPersonalData { profile { id } } }', {
      search: `?apiKey=${apiKey}`,
    });
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
      type: 'UnauthorizedOperationException',
    });
  });

  it("gives another user's token that user's own data only", async () => {
    const { doc: teacher, text } = await restExport('t1');
    await checkAgainstDatabase(teacher, text, userId('t1'));
    expect(teacher.profile.id).toBe(ids.users.t1);
    expect(teacher.answers).toEqual([]);
    expect(teacher.sessions.map((s) => s.id)).toEqual([ids.sessions.S1]);
    expect(teacher.quizzes.map((q) => q.id)).toEqual([ids.quizzes.q1]);
    expect(teacher.groups.owned).toEqual([
      expect.objectContaining({ id: ids.groups.g1, nbMembers: 2 }),
    ]);
    expect(teacher.dataSets.map((d) => d.itemType).sort()).toEqual([
      'computedResult',
      'quiz',
      'user',
    ]);
    // Nothing of the pupil's: no email, name, answer value or flag.
    expect(text).not.toMatch(/primrose|Van-Twest|Marmalade-Zeppelin/i);
    const { doc: other, text: otherText } = await restExport('o');
    await checkAgainstDatabase(other, otherText, userId('o'));
    expect(other.answers.every((a) => !String(a.value).includes('Marmalade'))).toBe(true);
    expect(otherText).not.toMatch(/primrose/i);
  });

  it('cli user:export of an unknown person: one line on stderr, exit 1, no file', async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'user-export-')), 'none.json');
    for (const user of ['999999', 'nobody@export.example']) {
      const run = await cli(['user:export', '--user', user, '--out', out]);
      expect([run.code, run.stdout]).toEqual([1, '']);
      expect(run.stderr).toMatch(/^error: [^\n]+\n$/);
      expect(fs.existsSync(out)).toBe(false);
    }
  });
});

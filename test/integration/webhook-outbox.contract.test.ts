import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { insertWebhookEndpoint } from '../../src/db/webhook-endpoints.store';
import { databaseOf } from '../../src/db/database';
import { eraseUser } from '../../src/services/privacy/erasure.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';

/**
 * The outbox of webhooks (contract.md §16) as the writes fill it, with delivery off so that the
 * rows stay to be read: each change writes its entry in its own transaction, only while its
 * audience has an endpoint listening for the type; a write refused or changing nothing writes
 * none; an erasure tells the owners the person was known to, not the others.
 */

const CLASS: ImportDocument = {
  users: [
    { ref: 't', email: 't@school.example', firstName: 'Tess', lastName: 'Teacher' },
    { ref: 'o', email: 'o@school.example', firstName: 'Otto', lastName: 'Other' },
    { ref: 'p', email: 'p@school.example', firstName: 'Pia', lastName: 'Pupil' },
    { ref: 'r', email: 'r@school.example', firstName: 'Rex', lastName: 'Pupil' },
  ],
  groups: [{ ref: 'G', name: 'Class 5A', owner: 't', members: ['p', 'r'] }],
  quizzes: [
    {
      ref: 'q',
      author: 't',
      title: 'Outbox',
      visibility: 'public',
      survey: false,
      tags: ['a', 'b'],
      questions: [
        { title: 'One?', type: 'TrueFalse', goodAnswer: true },
        { title: 'Two?', type: 'TrueFalse', goodAnswer: false },
      ],
    },
  ],
};

type Json = Record<string, unknown>;
interface OutboxRow {
  type: string;
  subjectId: number;
  audienceId: number | null;
  data: Json;
}

describe.each(BACKENDS)('the webhook outbox on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  const as: Record<string, string> = {};
  const id = (kind: 'users' | 'quizzes', ref: string) => Number(ids[kind][ref]);

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'webhook_outbox'));
    ids = await loadData(dataSource, CLASS);
    const key = await createTestApiKey(dataSource, 'localhost');
    for (const ref of Object.keys(ids.users)) {
      const token = await createTestToken(dataSource, id('users', ref), key.id);
      as[ref] = `apiKey=${key.secret}&accessToken=${token}`;
    }
    app = await startTestApp(dataSource, { WEBHOOK_DELIVERY_ENABLED: 'false' });
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  async function post(operation: string, body: Json, credentials: string) {
    const res = await app.get(`/${operation}?${credentials}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  async function outbox(): Promise<OutboxRow[]> {
    const rows = (await dataSource.query(
      'SELECT type, subject_id, audience_id, data FROM webhook_outbox ORDER BY id',
    )) as { type: string; subject_id: unknown; audience_id: unknown; data: string }[];
    return rows.map((row) => ({
      type: row.type,
      subjectId: Number(row.subject_id),
      audienceId: row.audience_id === null ? null : Number(row.audience_id),
      data: JSON.parse(row.data) as Json,
    }));
  }

  const clear = () => dataSource.query('DELETE FROM webhook_outbox');

  async function listen(ref: string, events: string) {
    await insertWebhookEndpoint(
      databaseOf(dataSource),
      { ownerId: id('users', ref), url: 'https://receiver.example/hook', events },
      () => 'sealed',
    );
  }

  const answer = (userRef: string, questionIndex: number, value: boolean) => ({
    userId: ids.users[userRef],
    quizId: ids.quizzes.q,
    questionIndex,
    answer: value,
  });

  it('writes nothing while no endpoint listens', async () => {
    const quiz = await post(
      'addQuiz',
      { quiz: { title: 'Unheard', visibility: 'public', survey: false, tags: ['x', 'y'] } },
      as.t,
    );
    expect(quiz.status).toBe(200);
    const session = await post(
      'addSession',
      { session: { title: 'Unheard', quizIds: [ids.quizzes.q] } },
      as.t,
    );
    expect(session.status).toBe(200);
    const answers = await post(
      'addAnswers',
      { sessionId: Number(session.body.id), answers: [answer('p', 0, true)] },
      as.t,
    );
    expect(answers.body).toMatchObject({ inserted: 1 });
    expect(await outbox()).toEqual([]);
  });

  it("writes the owner's entries for the types its endpoints listen to", async () => {
    await listen('t', 'session.created,answers.recorded,quiz.created');
    const quiz = await post(
      'addQuiz',
      { quiz: { title: 'Heard', visibility: 'public', survey: false, tags: ['x', 'y'] } },
      as.t,
    );
    const session = await post(
      'addSession',
      { session: { title: 'Heard', quizIds: [ids.quizzes.q], attendeeIds: [ids.users.p] } },
      as.t,
    );
    const sessionId = Number(session.body.id);
    const batch = [answer('p', 0, true), answer('r', 0, false), answer('p', 1, false)];
    const first = await post('addAnswers', { sessionId, answers: batch }, as.t);
    expect(first.body).toMatchObject({ inserted: 3 });
    // The same batch again changes nothing: no entry.
    const again = await post('addAnswers', { sessionId, answers: batch }, as.t);
    expect(again.body).toMatchObject({ unchanged: 3 });
    // An attendee's own answer is an event for the owner's endpoints, not the attendee's.
    const own = await post('addAnswers', { sessionId, answers: [answer('p', 0, false)] }, as.p);
    expect(own.body).toMatchObject({ updated: 1 });
    const t = id('users', 't');
    expect(await outbox()).toEqual([
      {
        type: 'quiz.created',
        subjectId: Number(quiz.body.id),
        audienceId: t,
        data: { quizId: Number(quiz.body.id) },
      },
      {
        type: 'session.created',
        subjectId: sessionId,
        audienceId: t,
        data: { sessionId, quizIds: [id('quizzes', 'q')] },
      },
      {
        type: 'answers.recorded',
        subjectId: sessionId,
        audienceId: t,
        data: { answers: 3, userIds: [id('users', 'p'), id('users', 'r')] },
      },
      {
        type: 'answers.recorded',
        subjectId: sessionId,
        audienceId: t,
        data: { answers: 1, userIds: [id('users', 'p')] },
      },
    ]);
    await clear();
  });

  it('writes nothing for a refused write, nor for types no endpoint listens to', async () => {
    const session = await post(
      'addSession',
      { session: { title: 'Refusals', quizIds: [ids.quizzes.q] } },
      as.t,
    );
    await clear();
    const sessionId = Number(session.body.id);
    // The second answer names a question the quiz lacks: the whole batch is refused.
    const refused = await post(
      'addAnswers',
      { sessionId, answers: [answer('p', 0, true), answer('p', 9, true)] },
      as.t,
    );
    expect(refused.status).toBe(400);
    // Otto listens to quizzes only: his session is not heard of.
    await listen('o', 'quiz.created');
    const others = await post(
      'addSession',
      { session: { title: 'Otto', quizIds: [ids.quizzes.q] } },
      as.o,
    );
    expect(others.status).toBe(200);
    expect(await outbox()).toEqual([]);
  });

  it('tells the owners a person was known to of their erasure, and no one else', async () => {
    await listen('o', 'user.erased');
    await listen('t', 'user.erased');
    const session = await post(
      'addSession',
      { session: { title: 'Before', quizIds: [ids.quizzes.q] } },
      as.t,
    );
    const sessionId = Number(session.body.id);
    await clear();
    // A batch naming Rex, not yet dispatched when he is erased.
    const batch = [answer('p', 1, true), answer('r', 1, true)];
    expect((await post('addAnswers', { sessionId, answers: batch }, as.t)).status).toBe(200);
    await eraseUser(app.deps, id('users', 'r'), { erasedBy: 'outbox-test' });
    // Rex was in Tess's group and answered in her session; Otto never knew him. The entry
    // written before no longer names him: nothing sent after user.erased does.
    expect(await outbox()).toEqual([
      {
        type: 'answers.recorded',
        subjectId: sessionId,
        audienceId: id('users', 't'),
        data: { answers: 2, userIds: [id('users', 'p')] },
      },
      {
        type: 'user.erased',
        subjectId: id('users', 'r'),
        audienceId: id('users', 't'),
        data: { userId: id('users', 'r') },
      },
    ]);
  });
});

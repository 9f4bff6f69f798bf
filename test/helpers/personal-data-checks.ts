import type { ImportDocument } from '../../src/data/import/import-document';
import type { Dialect } from '../../src/db/sql/dialect';
import type { Doc, Row } from './personal-data';

/**
 * The world of the export suite (test/integration/personal-data-export.contract.test.ts): a
 * pupil p who answered in two teachers' sessions, is in both their groups and flagged their
 * quizzes; another pupil o beside them. And the checks of an export against the database, one
 * per table of the registry of personal data that has a column naming a person.
 */

export const EXPORT_WORLD: ImportDocument = {
  users: [
    {
      ref: 't1',
      email: 'rosalind.ferncastle@export.example',
      password: 'Export-fixture-pass-1',
      firstName: 'Rosalind',
      lastName: 'Ferncastle',
    },
    {
      ref: 't2',
      email: 'bartholomew.qy@export.example',
      firstName: 'Bartholomew',
      lastName: 'Quayle-Yardley',
    },
    {
      ref: 'p',
      email: 'primrose.vantwest@export.example',
      firstName: 'Primrose',
      lastName: 'Van-Twest',
      pictureURL: 'https://pictures.example/p.png',
    },
    {
      ref: 'o',
      email: 'osric.lindqvist@export.example',
      firstName: 'Osric',
      lastName: 'Lindqvist',
    },
  ],
  quizzes: [1, 2].map((n) => ({
    ref: `q${n}`,
    author: `t${n}`,
    title: `Quiz of teacher ${n}`,
    visibility: 'public' as const,
    survey: false,
    tags: ['export', `t${n}`],
    questions: [
      { title: 'Cells divide', type: 'TrueFalse', goodAnswer: true },
      { title: 'Process', type: 'FreeAnswerText', goodAnswer: 'photosynthesis' },
      {
        title: 'Pick',
        type: 'MultipleChoicesOneGoodAnswer',
        propositions: ['a', 'b'],
        goodAnswer: 1,
      },
    ],
  })),
  groups: [
    { ref: 'g1', name: 'Class 5A', owner: 't1', members: ['p', 'o'] },
    { ref: 'g2', name: 'Chess club', owner: 't2', members: ['p'] },
  ],
  sessions: [1, 2].map((n) => ({
    ref: `S${n}`,
    owner: `t${n}`,
    title: `Session of teacher ${n}`,
    startDate: `2026-10-0${n} 09:00:00`,
    quizzes: [`q${n}`],
    attendees: [{ user: 'p', raisedHand: n === 1 }, { user: 'o' }],
  })),
  answers: (['p', 'o'] as const).flatMap((user) =>
    [1, 2].flatMap((n) =>
      [true, user === 'p' ? 'Marmalade-Zeppelin-42' : 'respiration', 1].map((answer, question) => ({
        session: `S${n}`,
        user,
        quiz: `q${n}`,
        question,
        answer,
        answeredAt: `2026-10-0${n} 09:0${question}:1${n}`,
      })),
    ),
  ),
  flags: [
    { user: 'p', quiz: 'q1', favorite: true },
    { user: 'p', quiz: 'q2', imported: true },
  ],
};

type Check = (doc: Doc, text: string, user: number) => Promise<void>;

/** The checks by table; `check` runs them all, naming the table of a failure. */
export function registryChecks(
  rows: (sql: string, params?: unknown[]) => Promise<Row[]>,
  dialect: Dialect,
): { tables: string[]; check: Check } {
  const checks: Record<string, Check> = {
    users: async (doc, text, user) => {
      const [row] = await rows('SELECT * FROM users WHERE id = ?', [user]);
      expect(doc.profile).toEqual({
        id: String(user),
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        pictureURL: row.picture_url,
        publicProfile: Boolean(Number(row.public_profile)),
        canCreatePrivateQuizzes: Boolean(Number(row.can_create_private_quizzes)),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      });
      if (row.password_hash) expect(text).not.toContain(String(row.password_hash));
      expect(text).not.toMatch(/password|\$argon2/i);
    },
    answers: async (doc, _text, user) => {
      const held = await rows(
        'SELECT id, value, session_id, quiz_id, good FROM answers WHERE user_id = ? ORDER BY id',
        [user],
      );
      // Each answer with its value, session, quiz and score (null for a survey's question).
      expect(
        doc.answers.map((a) => [a.id, JSON.stringify(a.value), a.sessionId, a.quizId, a.good]),
      ).toEqual(
        held.map((r) => [
          String(r.id),
          String(r.value),
          String(r.session_id),
          String(r.quiz_id),
          r.good === null ? null : Boolean(Number(r.good)),
        ]),
      );
    },
    session_attendees: async (doc, _text, user) => {
      const held = await rows(
        'SELECT session_id, raised_hand FROM session_attendees WHERE user_id = ? ORDER BY session_id',
        [user],
      );
      expect(doc.attendances.map((a) => [a.sessionId, a.raisedHand])).toEqual(
        held.map((r) => [String(r.session_id), Boolean(Number(r.raised_hand))]),
      );
    },
    sessions: async (doc, _text, user) => {
      const held = await rows('SELECT id FROM sessions WHERE owner_id = ? ORDER BY id', [user]);
      expect(doc.sessions.map((s) => s.id)).toEqual(held.map((r) => String(r.id)));
    },
    quizzes: async (doc, _text, user) => {
      const held = await rows('SELECT id FROM quizzes WHERE author_id = ? ORDER BY id', [user]);
      expect(doc.quizzes.map((q) => q.id)).toEqual(held.map((r) => String(r.id)));
    },
    user_quiz_flags: async (doc, _text, user) => {
      const held = await rows(
        'SELECT quiz_id, favorite, imported FROM user_quiz_flags WHERE user_id = ? ORDER BY quiz_id',
        [user],
      );
      expect(doc.quizFlags).toEqual(
        held.map((r) => ({
          quizId: String(r.quiz_id),
          favorite: Boolean(Number(r.favorite)),
          imported: Boolean(Number(r.imported)),
        })),
      );
    },
    user_groups: async (doc, _text, user) => {
      const held = await rows('SELECT id FROM user_groups WHERE owner_id = ? ORDER BY id', [user]);
      expect(doc.groups.owned.map((g) => g.id)).toEqual(held.map((r) => String(r.id)));
    },
    user_group_members: async (doc, _text, user) => {
      const held = await rows(
        'SELECT group_id FROM user_group_members WHERE user_id = ? ORDER BY group_id',
        [user],
      );
      expect(doc.groups.memberOf.map((g) => g.id)).toEqual(held.map((r) => String(r.group_id)));
    },
    api_keys: async (doc, text, user) => {
      const held = await rows('SELECT id, key_hash FROM api_keys WHERE owner_id = ? ORDER BY id', [
        user,
      ]);
      expect(doc.apiKeys.map((k) => k.id)).toEqual(held.map((r) => String(r.id)));
      for (const r of held) expect(text).not.toContain(String(r.key_hash));
    },
    webhook_endpoints: async (doc, text, user) => {
      const held = await rows(
        'SELECT id, secret_sealed, previous_secret_sealed FROM webhook_endpoints WHERE owner_id = ? ORDER BY id',
        [user],
      );
      expect(doc.webhooks.map((w) => w.id)).toEqual(held.map((r) => String(r.id)));
      for (const r of held) {
        expect(text).not.toContain(String(r.secret_sealed));
        if (r.previous_secret_sealed) expect(text).not.toContain(String(r.previous_secret_sealed));
      }
      expect(text).not.toContain('whsec_');
    },
    // Events sent to endpoints belong to the endpoint's owner: none is in the person's export.
    webhook_events: async (_doc, text) => {
      for (const r of await rows('SELECT message_id FROM webhook_events'))
        expect(text).not.toContain(String(r.message_id));
    },
    // Changes not yet dispatched: the events they become belong to the endpoint's owner.
    webhook_outbox: async (doc) => {
      expect(Object.keys(doc)).not.toContain('outbox');
    },
    // Credentials: the registry says they are not exported; their hashes appear nowhere.
    access_tokens: async (_doc, text, user) => {
      for (const r of await rows('SELECT token_hash FROM access_tokens WHERE user_id = ?', [user]))
        expect(text).not.toContain(String(r.token_hash));
    },
    web_sessions: async (_doc, text, user) => {
      for (const r of await rows('SELECT token_hash FROM web_sessions WHERE user_id = ?', [user]))
        expect(text).not.toContain(String(r.token_hash));
    },
    data_sets: async (doc, _text, user) => {
      const now = dialect.date(new Date());
      const held = await rows(
        'SELECT id FROM data_sets WHERE owner_user_id = ? AND expires_at > ? ORDER BY id',
        [user, now],
      );
      expect(doc.dataSets.map((d) => d.id)).toEqual(held.map((r) => String(r.id)));
    },
    // Members are exported with the sets the person made (registry): each set's size.
    data_set_items: async (doc) => {
      const idSets = ['user', 'quiz', 'userGroup'];
      for (const set of doc.dataSets.filter((d) => idSets.includes(d.itemType))) {
        const [{ n }] = await rows(
          'SELECT COUNT(*) AS n FROM data_set_items WHERE data_set_id = ?',
          [Number(set.id)],
        );
        expect([set.id, set.totalNumberOfItems]).toEqual([set.id, Number(n)]);
      }
    },
    computed_results: async (doc) => {
      for (const set of doc.dataSets.filter((d) => d.itemType === 'computedResult')) {
        const [{ n }] = await rows(
          'SELECT COUNT(*) AS n FROM computed_results WHERE data_set_id = ?',
          [Number(set.id)],
        );
        expect([set.id, set.totalNumberOfItems]).toEqual([set.id, Number(n)]);
      }
    },
    access_log: async (doc, _text, user) => {
      const held = await rows(
        'SELECT request_id, operation FROM access_log WHERE subject_user_id = ? ORDER BY id',
        [user],
      );
      expect(doc.accessLog.map((e) => [e.requestId, e.operation])).toEqual(
        held.map((r) => [r.request_id, r.operation]),
      );
    },
  };
  return {
    tables: Object.keys(checks),
    check: async (doc, text, user) => {
      for (const [table, check] of Object.entries(checks)) {
        try {
          await check(doc, text, user);
        } catch (error) {
          throw new Error(`${table}: ${(error as Error).message}`, { cause: error });
        }
      }
    },
  };
}

import type { DataSource } from 'typeorm';
import { generateData } from '../../src/data/generate/synthetic-data';
import { loadData } from '../../src/data/import/bulk-loader';
import { dialectOf } from '../../src/db/sql/dialect';
import {
  attemptScopeSql,
  attendedQuizzesSql,
  attendedSessionsSql,
  groupScopeSql,
  knownUsersSql,
  publicAuthorsSql,
  quizScopeSql,
  type FactQuery,
  type PolicyCondition,
} from '../../src/db/sql/access-policy.sql';
import {
  aggregateAttemptScope,
  detailedAttemptScope,
  groupScope,
  inAttemptScope,
  inGroupScope,
  quizReadDecision,
  quizScope,
  type PolicyRequester,
  type Visibility,
} from '../../src/domain/policy/access.policy';
import { BACKENDS, openBackend } from '../helpers/database';

/**
 * The SQL forms of the access policy (src/db/sql/access-policy.sql.ts) against the pure policy
 * (src/domain/policy/access.policy.ts) on generated data: for every requester, each condition
 * selects exactly the rows the policy allows, and each fact query finds exactly the facts
 * computed here from the base tables.
 */

interface World {
  users: { id: number }[];
  quizzes: { id: number; visibility: Visibility; authorId: number }[];
  sessions: { id: number; ownerId: number }[];
  attendees: { sessionId: number; userId: number }[];
  played: { sessionId: number; quizId: number }[];
  groups: { id: number; ownerId: number; memberIds: number[] }[];
  attempts: { userId: number; sessionId: number }[];
}

async function rows(dataSource: DataSource, sql: string, params: unknown[] = []) {
  return (await dataSource.query(sql, params)) as Record<string, unknown>[];
}

async function readWorld(dataSource: DataSource): Promise<World> {
  const n = (value: unknown) => Number(value);
  const members = await rows(dataSource, 'SELECT group_id, user_id FROM user_group_members');
  return {
    users: (await rows(dataSource, 'SELECT id FROM users')).map((r) => ({ id: n(r.id) })),
    quizzes: (await rows(dataSource, 'SELECT id, visibility, author_id FROM quizzes')).map((r) => ({
      id: n(r.id),
      visibility: r.visibility as Visibility,
      authorId: n(r.author_id),
    })),
    sessions: (await rows(dataSource, 'SELECT id, owner_id FROM sessions')).map((r) => ({
      id: n(r.id),
      ownerId: n(r.owner_id),
    })),
    attendees: (await rows(dataSource, 'SELECT session_id, user_id FROM session_attendees')).map(
      (r) => ({ sessionId: n(r.session_id), userId: n(r.user_id) }),
    ),
    played: (await rows(dataSource, 'SELECT session_id, quiz_id FROM session_quizzes')).map(
      (r) => ({ sessionId: n(r.session_id), quizId: n(r.quiz_id) }),
    ),
    groups: (await rows(dataSource, 'SELECT id, owner_id FROM user_groups')).map((r) => ({
      id: n(r.id),
      ownerId: n(r.owner_id),
      memberIds: members.filter((m) => n(m.group_id) === n(r.id)).map((m) => n(m.user_id)),
    })),
    attempts: (
      await rows(dataSource, 'SELECT DISTINCT user_id, session_id FROM answers ORDER BY 1, 2')
    ).map((r) => ({ userId: n(r.user_id), sessionId: n(r.session_id) })),
  };
}

function sorted(values: Iterable<number>): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

async function selected(
  dataSource: DataSource,
  from: string,
  condition: PolicyCondition | undefined,
): Promise<number[]> {
  const where = condition ? ` WHERE ${condition.sql}` : '';
  return sorted(
    (await rows(dataSource, `SELECT id FROM ${from}${where}`, condition?.params ?? [])).map((r) =>
      Number(r.id),
    ),
  );
}

async function facts(dataSource: DataSource, query: FactQuery): Promise<number[]> {
  return sorted((await rows(dataSource, query.sql, query.params)).map((r) => Number(r.id)));
}

describe.each(BACKENDS)('access policy in SQL (%s)', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let world: World;
  let requesters: PolicyRequester[];

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'policy_sql'));
    const { source } = generateData({
      users: 90,
      quizzes: 40,
      questions: 2,
      sessions: 30,
      participation: 0.3,
      seed: 1307,
    });
    await loadData(dataSource, source);
    world = await readWorld(dataSource);
    requesters = [
      { kind: 'operator' },
      { kind: 'anonymous', apiKeyId: 1 },
      ...world.users.map((user) => ({ kind: 'user' as const, apiKeyId: 1, userId: user.id })),
    ];
  });

  afterAll(async () => close());

  it('generates a world where every rule has cases both ways', () => {
    const visibilities = new Set(world.quizzes.map((quiz) => quiz.visibility));
    expect([...visibilities].sort()).toEqual(['draft', 'private', 'public']);
    expect(world.sessions.length).toBeGreaterThan(5);
    expect(world.played.length).toBeGreaterThan(5);
    expect(world.groups.some((group) => group.memberIds.length > 0)).toBe(true);
    expect(world.attempts.length).toBeGreaterThan(20);
  });

  it('lists exactly the quizzes quizReadDecision allows', async () => {
    let privateByAttendance = 0;
    for (const requester of requesters) {
      const userId = requester.kind === 'user' ? requester.userId : undefined;
      const attended = new Set(
        world.attendees.filter((a) => a.userId === userId).map((a) => a.sessionId),
      );
      const expected = world.quizzes.filter((quiz) => {
        const playedInAttendedSession = world.played.some(
          (p) => p.quizId === quiz.id && attended.has(p.sessionId),
        );
        const allowed =
          quizReadDecision(requester, { ...quiz, playedInAttendedSession }) === 'allowed';
        if (allowed && quiz.visibility === 'private' && quiz.authorId !== userId && userId)
          privateByAttendance += 1;
        return allowed;
      });
      const scope = quizScope(requester);
      expect(await selected(dataSource, 'quizzes q', quizScopeSql(scope, 'q'))).toEqual(
        sorted(expected.map((quiz) => quiz.id)),
      );
    }
    expect(privateByAttendance).toBeGreaterThan(0);
  });

  it('lists exactly the groups inGroupScope allows', async () => {
    let member = 0;
    for (const requester of requesters) {
      const scope = groupScope(requester);
      if (!scope) {
        expect(requester.kind).toBe('anonymous');
        continue;
      }
      const expected = world.groups.filter((group) => inGroupScope(scope, group));
      if (scope.kind === 'ownedOrMember')
        member += expected.filter((group) => group.ownerId !== scope.userId).length;
      expect(await selected(dataSource, 'user_groups g', groupScopeSql(scope, 'g'))).toEqual(
        sorted(expected.map((group) => group.id)),
      );
    }
    expect(member).toBeGreaterThan(0);
  });

  it('shows exactly the attempts inAttemptScope allows, for detailed results and for aggregates', async () => {
    const ownerOf = new Map(world.sessions.map((session) => [session.id, session.ownerId]));
    const key = (a: { userId: number; sessionId: number }) => `${a.userId}/${a.sessionId}`;
    let seenBySessionOwner = 0;
    const kinds = new Set<string>();
    // Each requester's scopes: detailed results', and aggregates' with LEGACY_OPEN_READS off and on.
    const scopes = requesters.flatMap((requester) => {
      const detailed = detailedAttemptScope(requester);
      if (!detailed) expect(requester.kind).toBe('anonymous');
      return [
        ...(detailed ? [detailed] : []),
        aggregateAttemptScope(requester, false),
        aggregateAttemptScope(requester, true),
      ];
    });
    expect(aggregateAttemptScope({ kind: 'anonymous', apiKeyId: 1 }, false)).toEqual({
      kind: 'none',
    });
    for (const scope of scopes) {
      kinds.add(scope.kind);
      const expected = world.attempts.filter((attempt) =>
        inAttemptScope(scope, { ...attempt, sessionOwnerId: ownerOf.get(attempt.sessionId)! }),
      );
      if (scope.kind === 'ownedSessionsOrSelf')
        seenBySessionOwner += expected.filter((a) => a.userId !== scope.userId).length;
      const condition = attemptScopeSql(scope, 'a');
      const where = condition ? ` WHERE ${condition.sql}` : '';
      const found = await rows(
        dataSource,
        `SELECT DISTINCT a.user_id, a.session_id FROM answers a${where}`,
        condition?.params ?? [],
      );
      expect(found.map((r) => `${Number(r.user_id)}/${Number(r.session_id)}`).sort()).toEqual(
        expected.map(key).sort(),
      );
    }
    expect(seenBySessionOwner).toBeGreaterThan(0);
    expect([...kinds].sort()).toEqual(['all', 'none', 'ownedSessionsOrSelf']);
  });

  it('finds exactly the facts the policy is given', async () => {
    const dialect = dialectOf(dataSource);
    const userIds = world.users.map((user) => user.id);
    const quizIds = world.quizzes.map((quiz) => quiz.id);
    const sessionIds = world.sessions.map((session) => session.id);
    expect(await facts(dataSource, publicAuthorsSql(dialect, userIds))).toEqual(
      sorted(world.quizzes.filter((q) => q.visibility === 'public').map((q) => q.authorId)),
    );
    let known = 0;
    for (const requesterId of userIds) {
      const ownedSessions = new Set(
        world.sessions.filter((s) => s.ownerId === requesterId).map((s) => s.id),
      );
      const attended = new Set(
        world.attendees.filter((a) => a.userId === requesterId).map((a) => a.sessionId),
      );
      const expectedKnown = sorted([
        ...world.attendees.filter((a) => ownedSessions.has(a.sessionId)).map((a) => a.userId),
        ...world.groups.filter((g) => g.ownerId === requesterId).flatMap((g) => g.memberIds),
      ]);
      known += expectedKnown.length;
      expect(await facts(dataSource, knownUsersSql(dialect, requesterId, userIds))).toEqual(
        expectedKnown,
      );
      expect(await facts(dataSource, attendedQuizzesSql(dialect, requesterId, quizIds))).toEqual(
        sorted(world.played.filter((p) => attended.has(p.sessionId)).map((p) => p.quizId)),
      );
      expect(
        await facts(dataSource, attendedSessionsSql(dialect, requesterId, sessionIds)),
      ).toEqual(sorted(attended));
    }
    expect(known).toBeGreaterThan(0);
  });
});

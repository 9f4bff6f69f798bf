import { OPERATION_CATALOG, OPERATIONS } from '../../src/api/operations/operation-catalog';
import { BACKENDS } from '../helpers/database';
import { graphql } from '../helpers/graphql';
import { closeOf, liveClient, LiveSubscription, SESSION_RESULTS } from '../helpers/live';
import {
  ANSWERS,
  Classroom,
  found,
  headersOf,
  PEOPLE,
  PERSONAL,
  PUPILS,
} from '../helpers/privacy-classroom';

/**
 * Issue 26 items 6 and 7 (contract.md §2, §14.7): no response repeats a credential, and the
 * server's output holds no name, email or answer value at `info` and no credential at any
 * level, wherever in the request it was put. The log scan runs a teacher's and a pupil's full
 * flow over every operation of the catalog on both wires, the pages included.
 */

describe.each(BACKENDS)('privacy of answers and logs (%s)', (backend) => {
  describe('a full run at info', () => {
    const room = new Classroom();
    let teacher: string;
    let pupil: string;

    beforeAll(async () => {
      await room.start(backend, 'info');
      teacher = await room.logIn('t');
      pupil = await room.logIn('marisol');
    });
    afterAll(() => room.stop());

    it('replays item 7: getQuizSet with keywords=Laurent writes no line holding the name', async () => {
      const before = room.app.logs.lines.length;
      const res = await room.rest('getQuizSet', undefined, { keywords: 'Laurent' });
      expect(res.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const lines = room.app.logs.lines.slice(before);
      expect(lines.some((line) => line.includes('/getQuizSet?'))).toBe(true);
      expect(lines.filter((line) => /laurent/i.test(line))).toEqual([]);
      // The parameter is named, its value is not.
      expect(lines.join('\n')).toContain('keywords=[REDACTED]');
    });

    it('writes no name, email or answer value in any line of a run over every operation, on both wires and the pages', async () => {
      const [q, s] = [room.ids.quizzes.q, room.ids.quizzes.s];
      const laurent = room.user('laurent');
      const userIds = PUPILS.map((person) => room.user(person));

      // The pages: failed logins with a pupil's email and an unknown one, the key manager.
      for (const email of [PEOPLE.ingrid[2], 'laurent.vasquez@lycee-prive.example']) {
        const failed = await room.postLogin({ apiKey: room.apiKey, email, password: 'wrong' });
        expect(failed.status).toBe(401);
      }
      const list = await room.createKey(PEOPLE.t[2], `App of ${PEOPLE.laurent.join(' ')}`);
      expect(list).toContain(PEOPLE.t[2]);

      for (const wire of ['rest', 'graphql'] as const) {
        const call = (
          name: keyof typeof OPERATIONS,
          params: Record<string, unknown>,
          token: string | undefined = teacher,
        ) =>
          wire === 'rest'
            ? room.rest(name, token, params).then((answer) => answer.json)
            : room.graphql(name, token, params);
        const answers = ANSWERS[wire];

        expect(await call('getUser', { userId: laurent })).toMatchObject({ firstName: 'Laurent' });
        await call('getUserAttribute', { userId: laurent, attributeName: 'lastName' });
        await call('getUser', { userId: PEOPLE.laurent.join(' ') });
        await call('getQuiz', { quizId: q });
        await call('getQuizAttribute', { quizId: q, attributeName: 'title' });
        await call('getQuizSet', {
          keywords: PEOPLE.kwabena[1],
          creationDate: '2020-01-01 00:00:00,2030-01-01 00:00:00',
        });
        await call('getQuizSet', { player: laurent, tag: 'biology' });
        const groups = await call('getUserGroupSet', { search: 'Laurent' });
        expect(groups.totalNumberOfItems).toBe(1);
        const members = await call('getUserSet', { userGroupSetId: String(groups.dataSetId) });
        const raised = await call('getUserSet', {
          sessionId: room.ids.sessions.S,
          raisedHand: 'true',
        });
        await call('getDataSetPage', { dataSetId: String(members.dataSetId), pageIndex: '1' });
        // Cursor pagination is GraphQL's only.
        await room.graphql(
          'getDataSetItems',
          teacher,
          { dataSetId: String(members.dataSetId), first: 2 },
          `query ($dataSetId: ID!, $first: Int) { getDataSetItems(dataSetId: $dataSetId, first: $first) {
             totalCount edges { cursor node { ... on User { id firstName lastName } } } } }`,
        );
        await call('computeDataSet', {
          dataSetId1: String(members.dataSetId),
          dataSetId2: String(raised.dataSetId),
          operator: 'union',
        });

        await call('addQuiz', {
          quiz: {
            title: `Revision for ${PEOPLE.ingrid.join(' ')}`,
            visibility: 'public',
            survey: false,
            tags: ['revision', 'biology'],
          },
        });
        const session = await call('addSession', {
          session: {
            title: `Catch-up with ${PEOPLE.kwabena.join(' ')}`,
            quizIds: [q, s],
            attendeeIds: userIds,
          },
        });
        const sessionId = String(session.id);
        expect(session.joinCode).toEqual(expect.any(String));
        const joined = await call('joinSession', { joinCode: String(session.joinCode) }, pupil);
        expect(joined.id).toBe(sessionId);
        const written = await call('addAnswers', {
          sessionId,
          answers: [
            { userId: laurent, quizId: q, questionIndex: 2, answer: answers[0] },
            { userId: room.user('ingrid'), quizId: q, questionIndex: 3, answer: answers[1] },
            { userId: room.user('kwabena'), quizId: s, questionIndex: 0, answer: answers[2] },
          ],
        });
        expect(written.inserted).toBe(3);
        const own = await call(
          'addAnswers',
          {
            sessionId,
            answers: [
              { userId: room.user('marisol'), quizId: s, questionIndex: 0, answer: answers[3] },
            ],
          },
          pupil,
        );
        expect(own.inserted).toBe(1);
        // Refused: a text where true or false is expected.
        await call('addAnswers', {
          sessionId,
          answers: [{ userId: laurent, quizId: q, questionIndex: 0, answer: ANSWERS.refused }],
        });
        await call('getSession', { sessionId });

        const users = await call('getUserSet', { sessionId });
        const quizzes = await call('getQuizSet', { sessionId });
        const sets = {
          userSetId: String(users.dataSetId),
          quizSetId: String(quizzes.dataSetId),
          sessionIds: sessionId,
        };
        const results = await call('getResults', {
          ...sets,
          resultTypes: 'nbGoodAnswers,goodAnswersPercent',
          aggregationFunctions: 'average,count',
          groupBy: 'user',
        });
        await call('getQuestionStatistics', sets);
        await call('getQuizStatistics', sets);
        // Webhooks: a URL naming a pupil is the teacher's to see, never a log line's.
        const hook = await call('addWebhook', {
          webhook: {
            url: `http://127.0.0.1:9/hooks/${PEOPLE.ingrid[1]}`,
            events: ['quiz.created'],
          },
        });
        const webhookId = String(hook.id);
        expect(hook.secret).toEqual(expect.stringMatching(/^whsec_/));
        await call('getWebhooks', {});
        await call('getWebhookDeliveries', { webhookId, limit: '5' });
        await call('redeliverWebhookEvent', { webhookId, eventId: 'msg_none' });
        await call('rotateWebhookSecret', { webhookId });
        await call('enableWebhook', { webhookId });
        await call('deleteWebhook', { webhookId });
        // The pupil's own export: their data in the answer, none of it in a log line.
        if (wire === 'rest') {
          expect((await room.rest('exportPersonalData', pupil, {})).status).toBe(200);
        } else {
          const mine = await room.graphql(
            'exportPersonalData',
            pupil,
            {},
            '{ exportPersonalData { profile { id email lastName } answers { value answeredAt } } }',
          );
          expect(mine).toMatchObject({ profile: { lastName: PEOPLE.marisol[1] } });
        }

        if (wire === 'rest') {
          for (const dataSetId of [users.dataSetId, results.dataSetId]) {
            for (const format of ['csv', 'ndjson']) {
              const exported = await room.rest('exportDataSet', teacher, {
                dataSetId: String(dataSetId),
                format,
              });
              expect(exported.status).toBe(200);
            }
          }
          continue;
        }
        await room.graphql(
          'getSessionResults',
          teacher,
          { sessionId, groupBy: 'user' },
          `query ($sessionId: ID!, $groupBy: GroupBy) { getSessionResults(sessionId: $sessionId, groupBy: $groupBy) { results { totalNumberOfItems } } }`,
        );
        room.covered.add('sessionResults');
        const client = liveClient(room.app.url, {
          connectionParams: { apiKey: room.apiKey, accessToken: teacher },
        });
        const live = new LiveSubscription(client, SESSION_RESULTS, { sessionId, groupBy: 'user' });
        await live.messages(1);
        live.unsubscribe();
        await client.dispose();
      }

      await new Promise((resolve) => setTimeout(resolve, 200));
      expect([...room.covered].sort()).toEqual(
        OPERATION_CATALOG.map((operation) => operation.name).sort(),
      );
      // The run was logged: a line for every request of each HTTP operation on each wire.
      const lines = room.requestLines();
      for (const operation of OPERATION_CATALOG.filter(
        (definition) => definition.graphQL !== 'subscription',
      )) {
        const onRest = lines.some((line) => line.url?.startsWith(`/${operation.name}?`));
        const onGraphQL = lines.some((line) => line.graphql?.rootFields.includes(operation.name));
        expect([
          operation.name,
          onRest || !operation.rest,
          onGraphQL || !operation.graphQL,
        ]).toEqual([operation.name, true, true]);
      }
      expect(lines.some((line) => line.url?.startsWith('/keys/create'))).toBe(true);
      expect(found(room.app.logs.text, PERSONAL)).toEqual([]);
    });
  });

  describe('credentials put anywhere, logging at debug', () => {
    const room = new Classroom();
    let key: string;
    let token: string;
    /** Answers that may not hold the key or the token. */
    const answered = () =>
      room.answers.splice(0).map(({ what, text }) => [what, found(text, [key, token])]);
    const clean = (list: (string | string[])[][]) => list.filter(([, leaks]) => leaks.length > 0);

    beforeAll(async () => {
      await room.start(backend, 'debug');
      key = room.apiKey;
      token = await room.logIn('t');
      room.answers.splice(0);
    });
    afterAll(() => room.stop());

    it('replays item 6: an unknown path holding the key and token answers 404 without them, on both wires', async () => {
      const forgotten = await room.fetch(
        'item 6',
        `/getUserSet&apiKey=${key}&accessToken=${token}`,
      );
      expect(forgotten.status).toBe(404);
      expect(forgotten.json).toMatchObject({
        type: 'UnsupportedRequestException',
        reason: 'operation getUserSet&… does not exist; query parameters follow a "?"',
      });
      for (const [method, path] of [
        ['POST', `/graphql&apiKey=${key}&accessToken=${token}`],
        ['GET', `/graphql;apiKey=${key}`],
        ['GET', `/getUserSet%26apiKey%3D${key}%26accessToken%3D${token}`],
        ['GET', `/${key}`],
        ['GET', `/v1/${token}/getUser`],
        ['GET', `/keys/${key}/delete`],
      ]) {
        const res = await room.fetch(path, path, {
          method,
          headers: { 'content-type': 'application/json' },
          ...(method === 'POST' ? { body: JSON.stringify({ query: '{ __typename }' }) } : {}),
        });
        expect([path, res.status]).toEqual([path, path.startsWith('/keys') ? 200 : 404]);
      }
      expect(clean(answered())).toEqual([]);
    });

    it('repeats no credential given as a bad credential or as the value of another parameter, on any wire', async () => {
      const post = (body: unknown): RequestInit => ({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const both = `apiKey=${key}&accessToken=${token}`;
      const legacyToken = encodeURIComponent(JSON.stringify({ token: key, expiresIn: 1 }));
      const refusals: [string, RequestInit?][] = [
        [`/getUser?apiKey=${key}&accessToken=${key}&userId=1`],
        [`/getUser?apiKey=${token}&userId=1`],
        [`/getUser?apiKey=${key}&accessToken=${legacyToken}&userId=1`],
        [`/getUser?${both}&accessToken=${token}&userId=1`],
        [`/getUser?${both}&apiKey=${token}&userId=1`],
        [`/getUser?${both}&userId=${token}`],
        [`/getQuizSet?${both}&numberOfItemsPerPage=${key}`],
        [`/getResults?${both}&userSetId=${key}&quizSetId=${token}`],
        [`/exportDataSet?${both}&dataSetId=${token}&format=${key}`],
        [`/addQuiz?${both}`, post({ apiKey: key, quiz: { title: 'T' } })],
        [`/addQuiz?${both}`, post({ quiz: { title: token, visibility: key, survey: false } })],
        [
          `/addAnswers?${both}`,
          post({ sessionId: key, answers: [{ userId: token, quizId: key, answer: token }] }),
        ],
        [`/joinSession?${both}`, post({ joinCode: key })],
      ];
      for (const [path, init] of refusals) {
        const res = await room.fetch(path, path, init);
        expect([path, res.status]).not.toEqual([path, 200]);
      }
      // A request id of a secret's shape is not taken, so not repeated; a probe logs at debug.
      const traced = await room.fetch('request id', `/getQuiz?${both}&quizId=1`, {
        headers: { 'x-request-id': token },
      });
      expect(traced.status).toBe(200);
      expect((await room.fetch('probe', `/livez?apiKey=${key}&note=${token}`)).status).toBe(200);
      expect(clean(answered())).toEqual([]);

      const asTeacher = { 'x-api-key': key, authorization: `Bearer ${token}` };
      const documents: [string, string, Record<string, unknown>, Record<string, string>][] = [
        ['bearer key', '{ __typename }', {}, { 'x-api-key': key, authorization: `Bearer ${key}` }],
        ['header token', '{ __typename }', {}, { 'x-api-key': token }],
        ['id', 'query ($u: ID!) { getUser(userId: $u) { id } }', { u: token }, asTeacher],
        [
          'int',
          'query ($n: Int) { getQuizSet(numberOfItemsPerPage: $n) { dataSetId } }',
          { n: key },
          asTeacher,
        ],
        [
          'literal',
          `{ getQuizSet(numberOfItemsPerPage: "${token}") { dataSetId } }`,
          {},
          asTeacher,
        ],
        [
          'enum',
          'query ($f: GroupBy) { getSessionResults(sessionId: "1", groupBy: $f) { __typename } }',
          { f: key },
          asTeacher,
        ],
        [
          'input',
          'mutation ($s: SessionInput!) { addSession(session: $s) { id } }',
          { s: { title: 'x', quizIds: [key], attendeeIds: [token] } },
          asTeacher,
        ],
      ];
      for (const [what, query, variables, headers] of documents) {
        const { body } = await graphql(room.app.url, query, { variables, headers });
        room.answers.push({ what, text: JSON.stringify(body) });
        expect([what, body.errors?.length ?? 0]).not.toEqual([what, 0]);
      }
      const get = await room.fetch(
        'graphql GET',
        `/graphql?${new URLSearchParams({ apiKey: key, accessToken: token, query: 'query ($u: ID!) { getUser(userId: $u) { id } }', variables: JSON.stringify({ u: key }) })}`,
        { headers: { 'apollo-require-preflight': 'true' } },
      );
      expect(get.status).toBe(200);

      // WebSocket: a refused connection's close reason, and a refused subscription's errors.
      const refused = liveClient(room.app.url, {
        connectionParams: { apiKey: token, accessToken: key },
      });
      const closed = new LiveSubscription(refused, SESSION_RESULTS, { sessionId: '1' });
      await closed.ended;
      await refused.dispose();
      room.answers.push({ what: 'close', text: JSON.stringify(closeOf(closed.failure)) });
      expect(closeOf(closed.failure)?.code).toBe(4401);
      const client = liveClient(room.app.url, {
        connectionParams: { apiKey: key, accessToken: token },
      });
      const failed = new LiveSubscription(client, SESSION_RESULTS, {
        sessionId: key,
        groupBy: token,
      });
      await failed.ended;
      await client.dispose();
      const told = JSON.stringify([failed.failure, failed.received]);
      room.answers.push({ what: 'subscribe', text: told });
      expect(told).toContain('BadParameterException');
      expect(clean(answered())).toEqual([]);

      // The pages: a token pasted as the key or the email, a key as the password.
      const page = await room.fetch(
        'login page',
        `/authentication/login.php?${new URLSearchParams({ apiKey: token, redirectURL: `http://localhost/?accessToken=${key}` })}`,
      );
      expect(page.status).toBe(400);
      const posted = await room.postLogin({ apiKey: key, email: token, password: key });
      expect(posted.status).toBe(401);
      // The form carries the page's own key back (its hidden field); the pasted token is gone.
      expect(found(await posted.text(), [token])).toEqual([]);
      const keysLogin = await room.postKeyManagerLogin(token, key);
      room.answers.push({
        what: 'key manager login',
        text: `${headersOf(keysLogin)} ${await keysLogin.text()}`,
      });
      expect(clean(answered())).toEqual([]);
    });

    it('writes neither the key nor the token in any line, whatever the level', async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const text = room.app.logs.text;
      expect(room.app.logs.records().some((record) => record.level === 'debug')).toBe(true);
      expect(room.requestLines().length).toBeGreaterThan(30);
      expect(text).toContain('[REDACTED]');
      expect(found(text, [key, token])).toEqual([]);
    });
  });
});

import type { DataSource } from 'typeorm';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap } from '../../src/data/import/import-document';
import { DataSet } from '../../src/db/entities';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { BACKENDS, openBackend } from '../helpers/database';
import { parseCsv, expectedRecords } from '../helpers/csv';
import { BIG, DOCUMENT, HEADERS, ndjsonItems, TRICKY } from '../helpers/export-fixtures';

/**
 * exportDataSet (contract.md §13): every item of a set, as CSV or NDJSON, equal to the items of
 * getDataSetPage's pages; the same errors as getDataSetPage before the first byte, a cut
 * connection after it.
 */

type Json = Record<string, unknown>;
type Who = 'anonymous' | 'otherKey' | 'A' | 'B';

interface Download {
  res: Response;
  /** The body decoded as UTF-8 with its byte-order mark kept. */
  text: string;
}

describe.each(BACKENDS)('exportDataSet on %s', (backend) => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  const who = {} as Record<Who, string>;

  async function json(path: string, requester: Who): Promise<{ status: number; body: Json }> {
    const res = await app.get(`${path}&${who[requester]}`);
    return { status: res.status, body: (await res.json()) as Json };
  }

  /** Makes a set with the operation and returns its id and first page. */
  async function makeSet(requester: Who, operation: string, params: Json): Promise<Json> {
    const query = new URLSearchParams(params as Record<string, string>);
    const { status, body } = await json(`/${operation}?${query.toString()}`, requester);
    expect(status).toBe(200);
    return body;
  }

  /** Every item of a set, page after page of getDataSetPage. */
  async function pagedItems(dataSetId: string, requester: Who): Promise<Json[]> {
    const items: Json[] = [];
    for (let index = 1; ; index += 1) {
      const { status, body } = await json(
        `/getDataSetPage?dataSetId=${dataSetId}&pageIndex=${index}`,
        requester,
      );
      expect(status).toBe(200);
      items.push(...(body.items as Json[]));
      if (index >= (body.numberOfPages as number)) return items;
    }
  }

  async function download(
    dataSetId: string | number,
    format: string,
    requester: Who,
  ): Promise<Download> {
    const res = await app.get(
      `/exportDataSet?dataSetId=${dataSetId}&format=${format}&${who[requester]}`,
    );
    return { res, text: Buffer.from(await res.arrayBuffer()).toString('utf8') };
  }

  beforeAll(async () => {
    ({ dataSource, close } = await openBackend(backend, 'data_set_export'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    const otherKey = await createTestApiKey(dataSource, 'localhost');
    who.anonymous = `apiKey=${key.secret}`;
    who.otherKey = `apiKey=${otherKey.secret}`;
    for (const ref of ['A', 'B'] as const) {
      const token = await createTestToken(dataSource, Number(ids.users[ref]), key.id);
      who[ref] = `apiKey=${key.secret}&accessToken=${token}`;
    }
    app = await startTestApp(dataSource);
  });

  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  /** One set of each item type (and both shapes of results), paged 2 items at a time. */
  async function setsOfEveryType(): Promise<{ name: keyof typeof HEADERS; set: Json }[]> {
    const session = ids.sessions.S as string;
    const users = await makeSet('A', 'getUserSet', { sessionId: session, numberOfItemsPerPage: 2 });
    const quizzes = await makeSet('A', 'getQuizSet', {
      author: ids.users.A,
      numberOfItemsPerPage: 1,
    });
    const groups = await makeSet('A', 'getUserGroupSet', { numberOfItemsPerPage: 1 });
    const results = (params: Json) =>
      makeSet('A', 'getResults', {
        userSetId: users.dataSetId,
        quizSetId: quizzes.dataSetId,
        numberOfItemsPerPage: 2,
        ...params,
      });
    return [
      { name: 'user', set: users },
      { name: 'quiz', set: quizzes },
      { name: 'userGroup', set: groups },
      { name: 'detailed', set: await results({ resultTypes: 'nbGoodAnswers,goodAnswersPercent' }) },
      {
        name: 'byUser',
        set: await results({
          resultTypes: 'nbGoodAnswers,nbAnswers',
          aggregationFunctions: 'min,average',
          groupBy: 'user',
        }),
      },
    ];
  }

  it('NDJSON: one line per item, the items of every page of getDataSetPage in order, for every item type', async () => {
    for (const { name, set } of await setsOfEveryType()) {
      const items = await pagedItems(set.dataSetId as string, 'A');
      expect([name, items.length]).toEqual([name, set.totalNumberOfItems]);
      expect(items.length).toBeGreaterThan(1);
      const { res, text } = await download(set.dataSetId as string, 'ndjson', 'A');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/x-ndjson');
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="${set.itemType as string}-${set.dataSetId as string}.ndjson"`,
      );
      expect(text.endsWith('\n')).toBe(true);
      expect([name, ndjsonItems(text)]).toEqual([name, items]);
    }
  });

  it('CSV: BOM, a header row of the flattened fields, CRLF records whose fields are the items, for every item type', async () => {
    for (const { name, set } of await setsOfEveryType()) {
      const items = await pagedItems(set.dataSetId as string, 'A');
      const { res, text } = await download(set.dataSetId as string, 'csv', 'A');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="${set.itemType as string}-${set.dataSetId as string}.csv"`,
      );
      expect(text.startsWith('\uFEFF')).toBe(true);
      // parseCsv refuses a record not ended by CRLF and a bare quote, CR or LF outside quotes.
      const [header, ...records] = parseCsv(text.slice(1));
      expect([name, header]).toEqual([name, HEADERS[name]]);
      expect([name, records]).toEqual([name, expectedRecords(items, HEADERS[name])]);
    }
  });

  it('round-trips quotes, commas, CR, LF, accents and double spaces through CSV', async () => {
    const users = await makeSet('A', 'getUserSet', { sessionId: ids.sessions.S as string });
    const [, ...records] = parseCsv(
      (await download(users.dataSetId as string, 'csv', 'A')).text.slice(1),
    );
    expect(records.map(([, firstName, lastName]) => [firstName, lastName])).toEqual(
      TRICKY.map(({ firstName, lastName }) => [firstName, lastName]),
    );
    const quizzes = await makeSet('A', 'getQuizSet', { quizId: ids.quizzes.q1 as string });
    const [header, quiz] = parseCsv(
      (await download(quizzes.dataSetId as string, 'csv', 'A')).text.slice(1),
    );
    const cell = (field: string) => quiz?.[(header as string[]).indexOf(field)];
    expect(cell('title')).toBe('Fractions, "hard"\nones');
    expect(cell('author.lastName')).toBe('Alpha, "the" teacher');
    // Arrays are their JSON text.
    expect(JSON.parse(cell('tags') as string)).toEqual(['a,b', 'façon']);
    expect((JSON.parse(cell('questions') as string) as Json[])[1]).toMatchObject({
      propositions: ['one, two', 'thrée'],
    });
    const groups = await makeSet('A', 'getUserGroupSet', {});
    const [, ...groupRecords] = parseCsv(
      (await download(groups.dataSetId as string, 'csv', 'A')).text.slice(1),
    );
    expect(groupRecords.map(([, groupName]) => groupName)).toEqual([
      'Group, "one"',
      'Zoé\r\nclass',
    ]);
  });

  it('an empty set: the CSV header row alone, an empty NDJSON file', async () => {
    const empty = await makeSet('A', 'getQuizSet', { keywords: 'nothing-matches-this' });
    expect(empty.totalNumberOfItems).toBe(0);
    const csv = await download(empty.dataSetId as string, 'csv', 'A');
    expect(csv.res.status).toBe(200);
    expect(csv.text).toBe(`\uFEFF${HEADERS.quiz.join(',')}\r\n`);
    const ndjson = await download(empty.dataSetId as string, 'ndjson', 'A');
    expect(ndjson.res.status).toBe(200);
    expect(ndjson.text).toBe('');
  });

  it('exports a set of 2,500 items (five reads of 500) completely and in order, for 3 points', async () => {
    // The attendance of a session is its owner's to read (contract.md §6).
    const big = await makeSet('A', 'getUserSet', {
      sessionId: ids.sessions.BIG as string,
      numberOfItemsPerPage: 1000,
    });
    expect(big.totalNumberOfItems).toBe(2500);
    const paged = await pagedItems(big.dataSetId as string, 'A');
    const expected = BIG.map((ref) => Number(ids.users[ref])).sort((a, b) => a - b);
    expect(paged.map((item) => Number(item.id))).toEqual(expected);

    const before = await app.get(`/getDataSetPage?dataSetId=${big.dataSetId as string}&${who.A}`);
    const remaining = Number(before.headers.get('ratelimit-remaining'));
    const ndjson = await download(big.dataSetId as string, 'ndjson', 'A');
    expect(ndjson.res.status).toBe(200);
    expect(ndjsonItems(ndjson.text)).toEqual(paged);
    // 1 point on arrival and 1 per 1,000 items started after the first 1,000: 3 in all.
    expect(remaining - Number(ndjson.res.headers.get('ratelimit-remaining'))).toBe(3);

    const csv = await download(big.dataSetId as string, 'csv', 'A');
    const [header, ...records] = parseCsv(csv.text.slice(1));
    expect(header).toEqual(HEADERS.user);
    expect(records).toEqual(expectedRecords(paged, HEADERS.user));
  });

  describe.each(['csv', 'ndjson'])('errors, format %s', (format) => {
    async function refusal(params: string, requester: Who): Promise<Json & { status: number }> {
      const res = await app.get(`/exportDataSet?${params}&${who[requester]}`);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('content-disposition')).toBeNull();
      return { status: res.status, ...((await res.json()) as Json) };
    }

    it('are getDataSetPage’s: missing, malformed, unknown or expired dataSetId, another requester’s set', async () => {
      const f = `format=${format}`;
      expect(await refusal(f, 'A')).toMatchObject({
        status: 400,
        type: 'MissingParameterException',
        operation: 'exportDataSet',
        parameterName: 'dataSetId',
      });
      expect(await refusal(`dataSetId=abc&${f}`, 'A')).toMatchObject({
        status: 400,
        type: 'BadParameterException',
        parameterName: 'dataSetId',
      });
      expect(await refusal(`dataSetId=2000000000&${f}`, 'A')).toMatchObject({
        status: 404,
        type: 'BadParameterException',
        parameterName: 'dataSetId',
      });
      const ofA = await makeSet('A', 'getUserSet', { sessionId: ids.sessions.S as string });
      const ofAnonymous = await makeSet('anonymous', 'getUserSet', { userId: ids.users.t0 });
      const forbidden = { status: 403, type: 'UnauthorizedOperationException' };
      expect(await refusal(`dataSetId=${ofA.dataSetId as string}&${f}`, 'B')).toMatchObject(
        forbidden,
      );
      expect(
        await refusal(`dataSetId=${ofAnonymous.dataSetId as string}&${f}`, 'otherKey'),
      ).toMatchObject(forbidden);
      // An anonymous requester reading a user's set is told a token is needed, as on pages.
      expect(await refusal(`dataSetId=${ofA.dataSetId as string}&${f}`, 'anonymous')).toMatchObject(
        {
          status: 401,
          type: 'UnauthorizedOperationException',
        },
      );
      const [stored] = await dataSource
        .getRepository(DataSet)
        .findBy({ id: Number(ofAnonymous.dataSetId) });
      // The service's clock one second past the set's expiry (a key has no expiry, a token has).
      const now = jest
        .spyOn(Date, 'now')
        .mockReturnValue((stored as DataSet).expiresAt.getTime() + 1000);
      try {
        expect(
          await refusal(`dataSetId=${ofAnonymous.dataSetId as string}&${f}`, 'anonymous'),
        ).toMatchObject({
          status: 404,
          type: 'BadParameterException',
          parameterName: 'dataSetId',
          providedValue: ofAnonymous.dataSetId,
        });
      } finally {
        now.mockRestore();
      }
    });

    it('a missing or unknown format is refused before the set is read', async () => {
      const set = await makeSet('A', 'getUserSet', { sessionId: ids.sessions.S as string });
      const id = set.dataSetId as string;
      expect(await refusal(`dataSetId=${id}`, 'A')).toMatchObject({
        status: 400,
        type: 'MissingParameterException',
        parameterName: 'format',
      });
      for (const bad of ['xml', format.toUpperCase(), `${format},${format}`]) {
        expect(
          await refusal(`dataSetId=${id}&format=${encodeURIComponent(bad)}`, 'A'),
        ).toMatchObject({
          status: 400,
          type: 'BadParameterException',
          parameterName: 'format',
          providedValue: bad,
        });
      }
    });
  });
});

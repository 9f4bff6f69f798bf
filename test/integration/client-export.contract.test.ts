import { Readable } from 'node:stream';
import type { DataSource } from 'typeorm';
import {
  BadParameterException,
  MissingParameterException,
  QuizApiClient,
  TransportException,
  type DataSetItem,
  type NdjsonDataSetFile,
  type Quiz,
} from '@quiz-results/client';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';

/** The client's exportDataSet against the running app (contract.md §13). */

const PUPILS = Array.from({ length: 12 }, (_, i) => `p${String(i + 1).padStart(2, '0')}`);

const DOCUMENT: ImportDocument = {
  users: [
    { ref: 'A', email: 'ada@school.example', firstName: 'Ada', lastName: 'Alpha' },
    ...PUPILS.map((ref) => ({
      ref,
      email: `${ref}@school.example`,
      firstName: 'Pupil',
      lastName: `Ça, "${ref}"`,
    })),
  ],
  quizzes: ['One', 'Two', 'Three'].map((title, i) => ({
    ref: `q${i}`,
    author: 'A',
    title: `Quiz ${title}`,
    visibility: i === 2 ? 'private' : 'public',
    survey: false,
    tags: ['math', title.toLowerCase()],
    creationDate: `2026-09-0${i + 1} 08:00:00`,
    questions: [{ title: 'True?', type: 'TrueFalse', goodAnswer: true }],
  })),
  sessions: [
    {
      ref: 'S',
      owner: 'A',
      title: 'Class',
      startDate: '2026-09-01 09:00:00',
      quizzes: ['q0'],
      attendees: PUPILS.map((user) => ({ user })),
    },
  ],
};

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('the client’s exportDataSet', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let app: TestApp;
  let ids: IdMap;
  let client: QuizApiClient;
  let credentials: string;

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDatabase('client_export'));
    ids = await loadData(dataSource, DOCUMENT);
    const key = await createTestApiKey(dataSource, 'localhost');
    const token = await createTestToken(dataSource, Number(ids.users.A), key.id);
    credentials = `apiKey=${key.secret}&accessToken=${token}`;
    app = await startTestApp(dataSource);
    client = new QuizApiClient({ baseUrl: app.url, apiKey: key.secret, accessToken: token });
  });

  afterAll(async () => {
    await app?.close();
    await close?.();
  });

  it('ndjson: the items as they arrive, parsed as the pages of the set give them (dates as Date)', async () => {
    const quizzes = await client.getQuizSet({ author: ids.users.A, numberOfItemsPerPage: 1 });
    const file = await client.exportDataSet({ dataSetId: quizzes.dataSetId, format: 'ndjson' });
    expect(file).toMatchObject({
      format: 'ndjson',
      fileName: `quiz-${quizzes.dataSetId}.ndjson`,
      itemType: 'quiz',
    });
    const items = await collect<DataSetItem>(file);
    expect(items).toHaveLength(3);
    expect((items[2] as Quiz).creationDate).toEqual(new Date('2026-09-03T08:00:00Z'));
    expect(items).toEqual(await quizzes.toArray());

    const users = await client.getUserSet({ sessionId: ids.sessions.S, numberOfItemsPerPage: 5 });
    const userFile: NdjsonDataSetFile = await client.exportDataSet({
      dataSetId: users,
      format: 'ndjson',
    });
    expect(await collect(userFile.items())).toEqual(await users.toArray());
  });

  it('csv: the file’s text (without its byte-order mark) and its raw bytes, as the service sends them', async () => {
    const users = await client.getUserSet({ sessionId: ids.sessions.S });
    const url = `${app.url}/exportDataSet?dataSetId=${users.dataSetId}&format=csv&${credentials}`;
    const raw = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const file = await client.exportDataSet({ dataSetId: users, format: 'csv' });
    expect(file).toMatchObject({ format: 'csv', fileName: `user-${users.dataSetId}.csv` });
    expect('items' in file).toBe(false);
    const text = await file.text();
    expect(text).toBe(raw.toString('utf8').slice(1));
    expect(text.split('\r\n')[1]).toBe(`${ids.users.p01},Pupil,"Ça, ""p01""",`);

    const again = await client.exportDataSet({ dataSetId: users, format: 'csv' });
    const bytes: Buffer[] = [];
    for await (const chunk of Readable.fromWeb(again.body as never)) bytes.push(chunk as Buffer);
    expect(Buffer.concat(bytes)).toEqual(raw);
  });

  it('throws the contract’s exceptions before the file starts', async () => {
    await expect(
      client.exportDataSet({ dataSetId: '2000000000', format: 'csv' }),
    ).rejects.toMatchObject({
      constructor: BadParameterException,
      status: 404,
      parameterName: 'dataSetId',
    });
    const users = await client.getUserSet({ sessionId: ids.sessions.S });
    await expect(
      client.exportDataSet({ dataSetId: users, format: 'xml' as 'csv' }),
    ).rejects.toMatchObject({
      constructor: BadParameterException,
      status: 400,
      parameterName: 'format',
    });
    await expect(
      client.exportDataSet({ dataSetId: users, format: '' as 'csv' }),
    ).rejects.toBeInstanceOf(MissingParameterException);
  });

  it('a file the service cuts short fails to read (TransportException), never ends as if complete', async () => {
    const users = await client.getUserSet({ sessionId: ids.sessions.S });
    // Members purged as the set expired: the service notices only once it has started.
    await dataSource.query('DELETE FROM data_set_items WHERE data_set_id = ? AND position > 3', [
      Number(users.dataSetId),
    ]);
    const file = await client.exportDataSet({ dataSetId: users, format: 'ndjson' });
    const received: DataSetItem[] = [];
    await expect(
      (async () => {
        for await (const item of file) received.push(item);
      })(),
    ).rejects.toBeInstanceOf(TransportException);
    expect(received).toHaveLength(3);
    const csv = await client.exportDataSet({ dataSetId: users, format: 'csv' });
    await expect(csv.text()).rejects.toBeInstanceOf(TransportException);
  });
});

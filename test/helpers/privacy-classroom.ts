import type { DataSource } from 'typeorm';
import { OPERATIONS } from '../../src/api/operations/operation-catalog';
import type { ParameterDefinition } from '../../src/api/operations/operation-definition';
import { loadData } from '../../src/data/import/bulk-loader';
import type { IdMap, ImportDocument } from '../../src/data/import/import-document';
import { startTestApp, type TestApp } from './app';
import { cookieHeader, cookiesSet, inputValue, loginThroughPage, postForm, visit } from './browser';
import { createTestApiKey } from './credentials';
import { openBackend, type Backend } from './database';
import { graphql } from './graphql';
import { PARITY_QUERIES } from './parity';

/**
 * The class of the privacy log scan (test/integration/privacy-logs.contract.test.ts): people and
 * answers whose values are found nowhere else, and a running app called as a classroom app calls
 * it, keeping every answer for the response checks.
 */

export const PASSWORD = 'Privacy-fixture-pass-5521';
export const REDIRECT = 'http://localhost/app';

/** People of the fixture, with names and emails found nowhere else. */
export const PEOPLE = {
  t: ['Philippa', 'Quennell-Ashdown', 'philippa.quennell@lycee-prive.example'],
  laurent: ['Laurent', 'Vasquez-Moreau', 'l.vasquez-moreau@lycee-prive.example'],
  ingrid: ['Ingrid', 'Thorvaldsdottir', 'ingrid.thorvald@lycee-prive.example'],
  kwabena: ['Kwabena', 'Oyelaran', 'kwabena.oyelaran@lycee-prive.example'],
  // In none of the teacher's groups: joins by code.
  marisol: ['Marisol', 'Etcheverry', 'marisol.etcheverry@lycee-prive.example'],
} as const;
export type Person = keyof typeof PEOPLE;
export const PUPILS: Person[] = ['laurent', 'ingrid', 'kwabena'];

/** Answer values, each written once, by import or through a wire. */
export const ANSWERS = {
  imported: ['Quixotic-Nebula-88', 'Saffron-Lighthouse-17'],
  rest: ['Xylophone-Quokka-71', 8675309.25, 'Zephyrine-Marmalade-39', 'Obsidian-Pelican-23'],
  graphql: ['Tangerine-Obelisk-52', 7310042.75, 'Wisteria-Kaleidoscope-64', 'Cobalt-Heron-46'],
  refused: 'Juniper-Avalanche-35',
};

const CLASS: ImportDocument = {
  users: Object.entries(PEOPLE).map(([ref, [firstName, lastName, email]]) => ({
    ref,
    email,
    password: PASSWORD,
    firstName,
    lastName,
    canCreatePrivateQuizzes: ref === 't',
  })),
  groups: [{ ref: 'g', name: "Laurent's reading circle", owner: 't', members: PUPILS }],
  quizzes: [
    {
      ref: 'q',
      author: 't',
      title: 'Cell biology',
      visibility: 'public',
      survey: false,
      tags: ['biology', 'cells'],
      questions: [
        { title: 'Cells divide', type: 'TrueFalse', goodAnswer: true },
        {
          title: 'Organelle',
          type: 'MultipleChoicesOneGoodAnswer',
          propositions: ['a', 'b'],
          goodAnswer: 1,
        },
        { title: 'Process', type: 'FreeAnswerText', goodAnswer: 'photosynthesis' },
        { title: 'Chromosomes', type: 'FreeAnswerNumber', goodAnswer: 46 },
      ],
    },
    {
      ref: 's',
      author: 't',
      title: 'How was the term',
      visibility: 'public',
      survey: true,
      tags: ['feedback', 'term'],
      questions: [{ title: 'Comment', type: 'FreeAnswerText' }],
    },
  ],
  sessions: [
    {
      ref: 'S',
      owner: 't',
      title: 'Biology, week 1',
      startDate: '2026-10-05 09:00:00',
      quizzes: ['q', 's'],
      attendees: PUPILS.map((user) => ({ user, raisedHand: user === 'laurent' })),
    },
  ],
  answers: [
    {
      session: 'S',
      user: 'laurent',
      quiz: 'q',
      question: 2,
      answer: ANSWERS.imported[0],
      answeredAt: '2026-10-05 09:01:00',
    },
    {
      session: 'S',
      user: 'ingrid',
      quiz: 's',
      question: 0,
      answer: ANSWERS.imported[1],
      answeredAt: '2026-10-05 09:02:00',
    },
  ],
};

/** Every value of a person or an answer the logs must not hold, as text. */
export const PERSONAL: string[] = [
  ...Object.values(PEOPLE).flat(),
  ...[...ANSWERS.imported, ...ANSWERS.rest, ...ANSWERS.graphql, ANSWERS.refused].map(String),
];

/** The values of `text` found in `output`, as written or URL-encoded, whatever their case. */
export function found(output: string, values: readonly string[]): string[] {
  const lowered = output.toLowerCase();
  return values.filter((value) =>
    [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)].some((form) =>
      lowered.includes(form.toLowerCase()),
    ),
  );
}

/** An answer's headers as text. */
export function headersOf(res: Response): string {
  const lines: string[] = [];
  res.headers.forEach((value, name) => lines.push(`${name}: ${value}`));
  return lines.join('\n');
}

export interface Answer {
  status: number;
  text: string;
  headers: string;
  json: Record<string, unknown>;
}

/** A running app over the class, with helpers calling it as a classroom app does. */
export class Classroom {
  app!: TestApp;
  ids!: IdMap;
  apiKey!: string;
  private close!: () => Promise<void>;
  readonly covered = new Set<string>();
  /** Every answer's status line, headers and body, for the response checks. */
  readonly answers: { what: string; text: string }[] = [];

  async start(backend: Backend, logLevel: string): Promise<void> {
    let dataSource: DataSource;
    ({ dataSource, close: this.close } = await openBackend(backend, 'privacy_logs'));
    this.ids = await loadData(dataSource, CLASS);
    this.apiKey = (await createTestApiKey(dataSource, 'localhost')).secret;
    this.app = await startTestApp(dataSource, {
      LOG_LEVEL: logLevel,
      // Webhook endpoints on loopback may be added; nothing is sent.
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_DELIVERY_ENABLED: 'false',
    });
  }

  async stop(): Promise<void> {
    await this.app?.close();
    await this.close?.();
  }

  user(person: Person): string {
    return this.ids.users[person];
  }

  /** A token issued by the login page, as a user gets one. */
  async logIn(person: Person): Promise<string> {
    const login = await loginThroughPage(
      this.app.url,
      this.apiKey,
      REDIRECT,
      PEOPLE[person][2],
      PASSWORD,
    );
    expect(login.res.status).toBe(303);
    return login.issued?.token as string;
  }

  async fetch(what: string, url: string, init: RequestInit = {}): Promise<Answer> {
    const res = await fetch(url.startsWith('http') ? url : `${this.app.url}${url}`, init);
    const text = await res.text();
    const headers = headersOf(res);
    this.answers.push({ what, text: `${res.status} ${headers} ${text}` });
    expect([what, res.status < 500]).toEqual([what, true]);
    let json: Record<string, unknown> = {};
    if (res.headers.get('content-type')?.startsWith('application/json'))
      json = JSON.parse(text) as typeof json;
    return { status: res.status, text, headers, json };
  }

  /** A REST call: GET parameters in the query string, POST ones as a JSON body. */
  rest(
    name: keyof typeof OPERATIONS,
    token: string | undefined,
    params: Record<string, unknown>,
  ): Promise<Answer> {
    this.covered.add(name);
    const rest = OPERATIONS[name].rest as { methods: readonly string[] };
    const method = rest.methods[0];
    const credentials = new URLSearchParams({
      apiKey: this.apiKey,
      ...(token ? { accessToken: token } : {}),
    });
    if (method === 'POST') {
      return this.fetch(name, `/${name}?${credentials}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(params),
      });
    }
    const query = new URLSearchParams(params as Record<string, string>);
    return this.fetch(name, `/${name}?${credentials}&${query}`);
  }

  /** The same call on GraphQL, credentials in the X-Api-Key and Authorization headers. */
  async graphql(
    name: keyof typeof OPERATIONS,
    token: string | undefined,
    params: Record<string, unknown>,
    document = PARITY_QUERIES[name],
  ): Promise<Record<string, unknown>> {
    this.covered.add(name);
    const parameters: readonly ParameterDefinition[] = OPERATIONS[name].parameters;
    const variables = Object.fromEntries(
      Object.entries(params).map(([key, value]) => {
        const type = parameters.find((parameter) => parameter.name === key)?.graphQLType;
        if (typeof value !== 'string') return [key, value];
        if (type?.startsWith('[')) return [key, value.split(',')];
        if (type === 'Int') return [key, Number(value)];
        return [key, type === 'Boolean' ? value === 'true' : value];
      }),
    );
    const headers = {
      'x-api-key': this.apiKey,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    const { status, body } = await graphql(this.app.url, document, { variables, headers });
    this.answers.push({ what: `graphql ${name}`, text: JSON.stringify(body) });
    const failed = (body.errors ?? []).filter(
      (error) => error.extensions?.code === 'INTERNAL_SERVER_ERROR',
    );
    expect([name, status < 500, failed]).toEqual([name, true, []]);
    return (body.data?.[name] ?? {}) as Record<string, unknown>;
  }

  /** The login page's form posted with the fields given, after a visit for its CSRF pair. */
  async postLogin(fields: { apiKey: string; email: string; password: string }): Promise<Response> {
    const page = await visit(
      `${this.app.url}/authentication/login.php?${new URLSearchParams({ apiKey: fields.apiKey, redirectURL: REDIRECT })}`,
    );
    return postForm(
      `${this.app.url}/authentication/login.php`,
      { csrf: inputValue(page.html, 'csrf') ?? '', redirectURL: REDIRECT, ...fields },
      { cookie: cookieHeader(page.cookies) },
    );
  }

  /** The key manager's login form posted, after a visit for its CSRF pair. */
  async postKeyManagerLogin(email: string, password: string): Promise<Response> {
    const page = await visit(`${this.app.url}/keys`);
    return postForm(
      `${this.app.url}/keys/login`,
      { csrf: inputValue(page.html, 'csrf') ?? '', email, password },
      { cookie: cookieHeader(page.cookies) },
    );
  }

  /** A key made in the key manager by a user logged in there; the list page's HTML. */
  async createKey(email: string, label: string): Promise<string> {
    const login = await this.postKeyManagerLogin(email, PASSWORD);
    expect(login.status).toBe(303);
    const cookie = `quiz_session=${cookiesSet(login).quiz_session}`;
    const list = await visit(`${this.app.url}/keys`, { headers: { cookie } });
    const created = await postForm(
      `${this.app.url}/keys/create`,
      { csrf: inputValue(list.html, 'csrf') ?? '', host: 'localhost', label },
      { cookie },
    );
    expect(created.status).toBe(303);
    return list.html;
  }

  /** The records of the request lines written so far. */
  requestLines(): { url?: string; graphql?: { rootFields: string[] } }[] {
    return this.app.logs
      .records()
      .filter((record) => record.req)
      .map((record) => ({
        url: (record.req as { url?: string }).url,
        graphql: record.graphql as { rootFields: string[] } | undefined,
      }));
  }
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/config';
import { ENV_VARIABLES } from '../../src/config/config.schema';

describe('config', () => {
  it('has the documented defaults and the embedded database without DATABASE_URL', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      nodeEnv: 'development',
      host: '127.0.0.1',
      port: 3000,
      publicBaseUrl: 'http://localhost:3000',
      basePath: '',
      tokenTtlSeconds: 86400,
      dataSetTtlSeconds: 86400,
      pageSize: 50,
      logLevel: 'info',
      trustProxy: false,
      live: { pollIntervalMs: 100, idleTimeoutSeconds: 60 },
      privacy: { answerRetentionDays: 730 },
      database: {
        dialect: 'sqlite',
        embedded: true,
        sqlitePath: path.resolve('/srv/app/data/quiz.sqlite'),
        migrateOnStart: true,
      },
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it.each([
    ['mysql://u:p@db:3306/quiz', 'mysql'],
    ['mariadb://root@127.0.0.1:3306/quiz', 'mariadb'],
  ])('takes the TypeORM type from the URL scheme of %s', (url, dialect) => {
    const config = loadConfig({ DATABASE_URL: url });
    expect(config.database).toMatchObject({ dialect, url, embedded: false });
  });

  it('reads an ordered list of nodes from DATABASE_URL: the first node stands for the URL, ports default to 3306', () => {
    const url = 'mariadb://app:secret@node1:3307,node2,10.0.0.3:3309/quiz?charset=utf8mb4';
    expect(loadConfig({ DATABASE_URL: url }).database).toMatchObject({
      dialect: 'mariadb',
      url: 'mariadb://app:secret@node1:3307/quiz?charset=utf8mb4',
      nodes: [
        { host: 'node1', port: 3307 },
        { host: 'node2', port: 3306 },
        { host: '10.0.0.3', port: 3309 },
      ],
    });
    // One host is a list of one.
    expect(loadConfig({ DATABASE_URL: 'mysql://u@db/quiz' }).database.nodes).toEqual([
      { host: 'db', port: 3306 },
    ]);
  });

  it.each([
    'mariadb://u@node1:3306,/quiz',
    'mariadb://u@node1:3306,node2:port/quiz',
    'mariadb://u@node1:3306,node 2:3306/quiz',
    'mariadb://u@node1:3306,node2:99999/quiz',
  ])('refuses a bad host in the node list of %s, naming DATABASE_URL', (url) => {
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(/DATABASE_URL/);
  });

  it('accepts an explicit SQLite file', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite:data/other.db' }, '/x').database).toMatchObject({
      dialect: 'sqlite',
      sqlitePath: '/x/data/other.db',
      embedded: false,
    });
  });

  it('reads every documented variable', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      COOKIE_SECRET: 'a-cookie-secret-of-at-least-32-characters',
      WEBHOOK_SECRET_KEY: 'c3'.repeat(32),
      HOST: '0.0.0.0',
      PORT: '8080',
      PUBLIC_BASE_URL: 'https://quiz.example.org/',
      BASE_PATH: '/api/',
      TOKEN_TTL_SECONDS: '60',
      DATASET_TTL_SECONDS: '120',
      PAGE_SIZE: '25',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: 'loopback, 10.0.0.0/8',
      MIGRATE_ON_START: 'false',
      BODY_LIMIT: '2mb',
      URL_LIMIT: '16kb',
      LIVE_POLL_INTERVAL_MS: '250',
      LIVE_IDLE_TIMEOUT_SECONDS: '30',
    });
    expect(config).toMatchObject({
      nodeEnv: 'production',
      host: '0.0.0.0',
      port: 8080,
      publicBaseUrl: 'https://quiz.example.org',
      basePath: '/api',
      tokenTtlSeconds: 60,
      dataSetTtlSeconds: 120,
      pageSize: 25,
      logLevel: 'debug',
      trustProxy: 'loopback, 10.0.0.0/8',
      bodyLimitBytes: 2 * 1024 * 1024,
      urlLimitBytes: 16 * 1024,
      live: { pollIntervalMs: 250, idleTimeoutSeconds: 30 },
    });
    expect(config.database.migrateOnStart).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['TOKEN_TTL_SECONDS', '-5'],
    ['TOKEN_TTL_SECONDS', '0'],
    ['DATASET_TTL_SECONDS', '1.5'],
    ['DATASET_TTL_SECONDS', '604801'],
    ['ANSWER_RETENTION_DAYS', '-1'],
    ['ANSWER_RETENTION_DAYS', '1.5'],
    ['ANSWER_RETENTION_DAYS', 'forever'],
    ['PAGE_SIZE', '0'],
    ['PAGE_SIZE', '5000'],
    ['LOG_LEVEL', 'loud'],
    ['NODE_ENV', 'staging'],
    ['DATABASE_URL', 'postgres://db/quiz'],
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://db:3306'],
    ['PUBLIC_BASE_URL', 'ftp://example.org'],
    ['PUBLIC_BASE_URL', 'localhost:3000'],
    ['TRUST_PROXY', 'yes please!'],
    ['COOKIE_SECRET', 'short'],
    ['MIGRATE_ON_START', 'maybe'],
    ['BODY_LIMIT', 'huge'],
    ['BASE_PATH', 'api'],
    ['LIVE_POLL_INTERVAL_MS', '5'],
    ['LIVE_IDLE_TIMEOUT_SECONDS', '0'],
    ['METRICS_ENABLED', 'sometimes'],
    ['METRICS_TOKEN', 'too-short'],
    ['METRICS_TOKEN', 'has a space in it, sadly'],
  ])('refuses %s=%s with an error naming the variable', (name, value) => {
    let caught: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).variable).toBe(name);
    expect((caught as ConfigError).message).toContain(name);
  });

  it('reads ANSWER_RETENTION_DAYS, 0 for ever', () => {
    expect(loadConfig({ ANSWER_RETENTION_DAYS: '30' }).privacy.answerRetentionDays).toBe(30);
    expect(loadConfig({ ANSWER_RETENTION_DAYS: '0' }).privacy.answerRetentionDays).toBe(0);
  });

  it('caps DATASET_TTL_SECONDS at 7 days, naming the cap', () => {
    expect(loadConfig({ DATASET_TTL_SECONDS: '604800' }).dataSetTtlSeconds).toBe(604800);
    expect(() => loadConfig({ DATASET_TTL_SECONDS: String(30 * 86400) })).toThrow(
      /DATASET_TTL_SECONDS must be at most 604800 \(7 days, the cap\), got 2592000/,
    );
  });

  it('names every bad variable in one error, one line each', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'abc', TRUST_PROXY: 'yes', BODY_LIMIT: 'huge', PAGE_SIZE: '25' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.problems.map((problem) => problem.variable)).toEqual([
      'PORT',
      'TRUST_PROXY',
      'BODY_LIMIT',
    ]);
    expect(error.variable).toBe('PORT');
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('Invalid configuration (3 variables):');
    expect(lines[1]).toMatch(/^ {2}PORT must be a whole number, got "abc"$/);
    expect(lines[2]).toMatch(/^ {2}TRUST_PROXY .*"yes"/);
    expect(lines[3]).toMatch(/^ {2}BODY_LIMIT .*"huge"/);
  });

  it('names the production requirement of COOKIE_SECRET beside the other bad variables', () => {
    let caught: unknown;
    try {
      loadConfig({
        NODE_ENV: 'production',
        PORT: '99999',
        BODY_LIMIT: 'huge',
        METRICS_TOKEN: 'short',
      });
    } catch (error) {
      caught = error;
    }
    expect((caught as ConfigError).problems).toEqual([
      { variable: 'PORT', message: 'must be between 0 and 65535, got 99999' },
      { variable: 'BODY_LIMIT', message: 'must be a size such as 1mb or 8kb, got "huge"' },
      { variable: 'COOKIE_SECRET', message: 'is required in production (at least 32 characters)' },
      { variable: 'METRICS_TOKEN', message: 'must be at least 16 characters' },
    ]);
  });

  it('serves metrics by default, and keeps only the hash of a metrics token', () => {
    expect(loadConfig({}).metrics).toEqual({ enabled: true, tokenSha256: undefined });
    const token = 'scrape-token-0123456789';
    const config = loadConfig({ METRICS_ENABLED: 'off', METRICS_TOKEN: token });
    expect(config.metrics.enabled).toBe(false);
    expect(config.metrics.tokenSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(config)).not.toContain(token);
  });

  it('keeps one line for one bad variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(
      new ConfigError([{ variable: 'PORT', message: 'must be a whole number, got "abc"' }]),
    );
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(
      'Invalid configuration: PORT must be a whole number, got "abc"',
    );
  });

  it.each([
    ['true', true],
    ['false', false],
    ['0', false],
    ['2', 2],
    ['loopback', 'loopback'],
    ['linklocal, uniquelocal', 'linklocal, uniquelocal'],
    ['10.0.0.0/8', '10.0.0.0/8'],
    ['10.0.0.0/255.0.0.0', '10.0.0.0/255.0.0.0'],
    ['127.0.0.1, ::1', '127.0.0.1, ::1'],
    ['fe80::/10, 192.168.1.7', 'fe80::/10, 192.168.1.7'],
  ])('accepts TRUST_PROXY=%s as Express takes it', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(expected);
  });

  it.each([
    'yes',
    'Loopback',
    '10.0.0.0/99',
    '10.0.0.0/0',
    '::1/129',
    '10.0.0.0/255.0.255.0',
    '300.1.1.1',
    '127.1',
    'loopback,,10.0.0.1',
    '10.0.0.1,',
    'proxy.example.org',
  ])('refuses TRUST_PROXY=%s naming the variable', (value) => {
    let caught: unknown;
    try {
      loadConfig({ TRUST_PROXY: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual([
      { variable: 'TRUST_PROXY', message: expect.stringContaining('hop count') as unknown },
    ]);
    expect((caught as ConfigError).message).toContain('TRUST_PROXY');
  });

  describe('.env.example', () => {
    const root = path.resolve(__dirname, '../..');
    const example = new Map(
      readFileSync(path.join(root, '.env.example'), 'utf8')
        .split('\n')
        .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
        .filter((match) => match !== null)
        .map((match) => [match[1], match[2]] as const),
    );
    // The variables config.ts reads: the keys of its schema of the environment.
    const read = new Set<string>(ENV_VARIABLES);
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'));
    const documented = new Set(
      [...section.slice(0, section.indexOf('\n## ', 1)).matchAll(/^\| `([A-Z][A-Z0-9_]*)`/gm)].map(
        (match) => match[1],
      ),
    );

    it('lists exactly the variables config.ts reads and the README documents', () => {
      expect(read.size).toBeGreaterThan(20);
      expect([...example.keys()].sort()).toEqual([...read].sort());
      expect([...documented].sort()).toEqual([...read].sort());
    });

    it('gives every variable its default', () => {
      const { cookieSecret: _fromExample, ...fromExample } = loadConfig(
        Object.fromEntries(example),
        root,
      );
      const { cookieSecret: _fromNothing, ...fromNothing } = loadConfig({}, root);
      expect(fromExample).toEqual(fromNothing);
    });
  });
});

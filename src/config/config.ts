import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';

export type DatabaseDialect = 'mysql' | 'mariadb' | 'sqlite';

export interface DatabaseConfig {
  dialect: DatabaseDialect;
  /** Connection URL for mysql/mariadb; absent for sqlite. */
  url?: string;
  /** File path for sqlite. */
  sqlitePath?: string;
  /** True when no DATABASE_URL was given and the embedded SQLite default is used. */
  embedded: boolean;
  poolSize: number;
  migrateOnStart: boolean;
  /** How long a start waits for another instance's migrations (MIGRATION_LOCK_TIMEOUT_SECONDS). */
  migrationLockTimeoutSeconds?: number;
}

export const DEFAULT_MIGRATION_LOCK_TIMEOUT_SECONDS = 300;

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type NodeEnv = 'development' | 'production' | 'test';

export interface Config {
  nodeEnv: NodeEnv;
  host: string;
  port: number;
  publicBaseUrl: string;
  /** Path prefix of the legacy REST operations, '' for the server root. */
  basePath: string;
  database: DatabaseConfig;
  tokenTtlSeconds: number;
  dataSetTtlSeconds: number;
  pageSize: number;
  logLevel: LogLevel;
  /** Passed to Express 'trust proxy': false, true, a hop count or a list of addresses/subnets. */
  trustProxy: boolean | number | string;
  bodyLimitBytes: number;
  urlLimitBytes: number;
  shutdownTimeoutMs: number;
  /** Load the demo data set into an empty embedded database. */
  seedDemo: boolean;
  /** Signs CSRF tokens of the HTML pages; every instance behind one URL needs the same. */
  cookieSecret: string;
  /** True when cookieSecret was generated at start-up (fine for one instance in development). */
  cookieSecretGenerated: boolean;
  login: {
    maxFailuresPerAccount: number;
    maxFailuresPerIp: number;
    failureWindowSeconds: number;
  };
  /** Lifetime of a key-manager browser session. */
  webSessionTtlSeconds: number;
  /** How often expired tokens, sessions and data sets are purged. */
  purgeIntervalSeconds: number;
  /** Points each API key may spend per window (contract.md §11). */
  rateLimit: { points: number; windowSeconds: number };
  /** Largest computed cost of a GraphQL document. */
  graphqlMaxCost: number;
  /**
   * How long an instance keeps a looked-up API key and token (0: never). Each request's rate-limit
   * charge still reads whether the key is in force, so revocation is never delayed by it.
   */
  credentialsCacheSeconds: number;
  /**
   * Live results (contract.md §10): how often watched sessions' change markers are read, and how
   * long a WebSocket connection may stay without a subscription.
   */
  live: { pollIntervalMs: number; idleTimeoutSeconds: number };
}

/** One refused variable: its name and what is wrong with its value. */
export interface ConfigProblem {
  variable: string;
  message: string;
}

/** Every bad variable of the environment at once, one line each in the message. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];
  /** The first bad variable. */
  readonly variable: string;

  constructor(problems: readonly ConfigProblem[]) {
    const lines = problems.map(({ variable, message }) => `${variable} ${message}`);
    super(
      lines.length === 1
        ? `Invalid configuration: ${lines[0]}`
        : `Invalid configuration (${lines.length} variables):\n${lines.map((line) => `  ${line}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.problems = Object.freeze([...problems]);
    this.variable = problems[0]?.variable ?? '';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** The environment being read and the problems found in it so far. */
interface Source {
  env: Env;
  problems: ConfigProblem[];
}

/** Records a refused variable and returns the fallback, so that reading goes on. */
function refuse<T>(source: Source, variable: string, message: string, fallback: T): T {
  source.problems.push({ variable, message });
  return fallback;
}

function read(source: Source, name: string): string | undefined {
  const value = source.env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(source: Source, name: string, fallback: number, min: number, max: number): number {
  const raw = read(source, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) {
    return refuse(source, name, `must be a whole number, got "${raw}"`, fallback);
  }
  const value = Number(raw);
  if (value < min || value > max) {
    return refuse(source, name, `must be between ${min} and ${max}, got ${value}`, fallback);
  }
  return value;
}

function boolean(source: Source, name: string, fallback: boolean): boolean {
  const raw = read(source, name);
  if (raw === undefined) return fallback;
  const lowered = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(lowered)) return true;
  if (['false', '0', 'no', 'off'].includes(lowered)) return false;
  return refuse(source, name, `must be true or false, got "${raw}"`, fallback);
}

function oneOf<T extends string>(
  source: Source,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = read(source, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    return refuse(source, name, `must be one of ${allowed.join(', ')}, got "${raw}"`, fallback);
  }
  return raw as T;
}

function bytes(source: Source, name: string, fallback: number): number {
  const raw = read(source, name);
  if (raw === undefined) return fallback;
  const match = /^(\d+)\s*(b|kb|mb)?$/i.exec(raw);
  if (!match) {
    return refuse(source, name, `must be a size such as 1mb or 8kb, got "${raw}"`, fallback);
  }
  const factor = { b: 1, kb: 1024, mb: 1024 * 1024 }[(match[2] ?? 'b').toLowerCase() as 'b'];
  const value = Number(match[1]) * factor;
  if (value < 1024) return refuse(source, name, `must be at least 1kb, got "${raw}"`, fallback);
  return value;
}

function database(source: Source, cwd: string): DatabaseConfig {
  const url = read(source, 'DATABASE_URL');
  const poolSize = integer(source, 'DATABASE_POOL_SIZE', 10, 1, 500);
  const migrateOnStart = boolean(source, 'MIGRATE_ON_START', true);
  const embedded: DatabaseConfig = {
    dialect: 'sqlite',
    sqlitePath: path.resolve(cwd, read(source, 'SQLITE_PATH') ?? 'data/quiz.sqlite'),
    embedded: true,
    poolSize,
    migrateOnStart,
  };
  if (url === undefined) return embedded;
  const bad = (message: string) => refuse(source, 'DATABASE_URL', message, embedded);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return bad('is not a valid URL');
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  if (scheme === 'sqlite') {
    // sqlite:relative/path.db or sqlite:///absolute/path.db
    const file = decodeURIComponent(url.slice('sqlite:'.length).replace(/^\/\//, ''));
    if (file === '') return bad('names no SQLite file');
    return {
      dialect: 'sqlite',
      sqlitePath: path.resolve(cwd, file),
      embedded: false,
      poolSize,
      migrateOnStart,
    };
  }
  if (scheme !== 'mysql' && scheme !== 'mariadb') {
    return bad(`must start with mysql://, mariadb:// or sqlite:, got "${scheme}:"`);
  }
  if (parsed.pathname.replace(/^\//, '') === '') {
    return bad('must name a database (mysql://user@host:3306/name)');
  }
  return { dialect: scheme, url, embedded: false, poolSize, migrateOnStart };
}

function baseUrl(source: Source, port: number): string {
  const fallback = `http://localhost:${port}`;
  const raw = read(source, 'PUBLIC_BASE_URL');
  if (raw === undefined) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return refuse(source, 'PUBLIC_BASE_URL', `is not a valid URL: "${raw}"`, fallback);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return refuse(source, 'PUBLIC_BASE_URL', 'must be an http or https URL', fallback);
  }
  return raw.replace(/\/+$/, '');
}

/** Prefix length of an IPv4 netmask such as 255.255.0.0; undefined if its bits are not contiguous. */
function netmaskLength(mask: string): number | undefined {
  const bits = mask
    .split('.')
    .map((octet) => Number(octet).toString(2).padStart(8, '0'))
    .join('');
  const ones = /^(1*)0*$/.exec(bits)?.[1];
  return ones?.length;
}

/**
 * Whether one entry of a TRUST_PROXY list is what Express (proxy-addr) accepts: loopback,
 * linklocal, uniquelocal, an IP address, or a subnet as address/prefix (IPv4 also address/netmask).
 */
function trustedProxyEntry(entry: string): boolean {
  if (entry === 'loopback' || entry === 'linklocal' || entry === 'uniquelocal') return true;
  const slash = entry.lastIndexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const version = isIP(address);
  if (version === 0) return false;
  if (slash === -1) return true;
  const range = entry.slice(slash + 1);
  const max = version === 4 ? 32 : 128;
  if (/^\d+$/.test(range)) return Number(range) >= 1 && Number(range) <= max;
  if (version !== 4 || isIP(range) !== 4) return false;
  const length = netmaskLength(range);
  return length !== undefined && length >= 1;
}

function trustProxy(source: Source): boolean | number | string {
  const raw = read(source, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const refused = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => !trustedProxyEntry(entry));
  if (refused.length > 0) {
    return refuse(
      source,
      'TRUST_PROXY',
      `must be true, false, a hop count, or a comma-separated list of IP addresses, subnets (10.0.0.0/8) and loopback, linklocal, uniquelocal; ${refused.map((entry) => `"${entry}"`).join(', ')} ${refused.length === 1 ? 'is' : 'are'} none of these`,
      false,
    );
  }
  return raw;
}

function basePath(source: Source): string {
  const raw = read(source, 'BASE_PATH');
  if (raw === undefined || raw === '/') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+\/?$/.test(raw)) {
    return refuse(source, 'BASE_PATH', `must be a path such as /api, got "${raw}"`, '');
  }
  return raw.replace(/\/$/, '');
}

function cookieSecret(
  source: Source,
  nodeEnv: NodeEnv,
): { cookieSecret: string; cookieSecretGenerated: boolean } {
  const generated = { cookieSecret: randomBytes(32).toString('hex'), cookieSecretGenerated: true };
  const raw = read(source, 'COOKIE_SECRET');
  if (raw === undefined) {
    if (nodeEnv === 'production') {
      return refuse(
        source,
        'COOKIE_SECRET',
        'is required in production (at least 32 characters)',
        generated,
      );
    }
    return generated;
  }
  if (raw.length < 32) {
    return refuse(source, 'COOKIE_SECRET', 'must be at least 32 characters', generated);
  }
  return { cookieSecret: raw, cookieSecretGenerated: false };
}

/**
 * Reads and validates the environment. The only place that reads process.env; everything else
 * receives a Config. Throws one ConfigError naming every bad variable.
 */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const source: Source = { env, problems: [] };
  const nodeEnv = oneOf(source, 'NODE_ENV', ['development', 'production', 'test'], 'development');
  const host = read(source, 'HOST') ?? '127.0.0.1';
  const port = integer(source, 'PORT', 3000, 0, 65535);
  const publicBaseUrl = baseUrl(source, port);
  const config: Config = {
    nodeEnv,
    host,
    port,
    publicBaseUrl,
    basePath: basePath(source),
    database: {
      ...database(source, cwd),
      migrationLockTimeoutSeconds: integer(
        source,
        'MIGRATION_LOCK_TIMEOUT_SECONDS',
        DEFAULT_MIGRATION_LOCK_TIMEOUT_SECONDS,
        1,
        86400,
      ),
    },
    tokenTtlSeconds: integer(source, 'TOKEN_TTL_SECONDS', 86400, 1, 365 * 86400),
    dataSetTtlSeconds: integer(source, 'DATASET_TTL_SECONDS', 86400, 1, 365 * 86400),
    pageSize: integer(source, 'PAGE_SIZE', 50, 1, 1000),
    logLevel: oneOf(
      source,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      nodeEnv === 'test' ? 'silent' : 'info',
    ),
    trustProxy: trustProxy(source),
    // Room for a batch of 5,000 answers with long texts (addAnswers, contract.md §9).
    bodyLimitBytes: bytes(source, 'BODY_LIMIT', 4 * 1024 * 1024),
    urlLimitBytes: bytes(source, 'URL_LIMIT', 8 * 1024),
    shutdownTimeoutMs: integer(source, 'SHUTDOWN_TIMEOUT_MS', 10000, 0, 600000),
    seedDemo: boolean(source, 'SEED_DEMO', true),
    ...cookieSecret(source, nodeEnv),
    login: {
      maxFailuresPerAccount: integer(source, 'LOGIN_MAX_FAILURES_PER_ACCOUNT', 5, 1, 1000),
      maxFailuresPerIp: integer(source, 'LOGIN_MAX_FAILURES_PER_IP', 30, 1, 100000),
      failureWindowSeconds: integer(source, 'LOGIN_FAILURE_WINDOW_SECONDS', 900, 1, 86400),
    },
    webSessionTtlSeconds: integer(source, 'WEB_SESSION_TTL_SECONDS', 8 * 3600, 60, 30 * 86400),
    purgeIntervalSeconds: integer(source, 'PURGE_INTERVAL_SECONDS', 600, 1, 86400),
    rateLimit: {
      points: integer(source, 'RATE_LIMIT_POINTS', 1200, 1, 1_000_000_000),
      windowSeconds: integer(source, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86400),
    },
    graphqlMaxCost: integer(source, 'GRAPHQL_MAX_COST', 20000, 1, 10_000_000),
    credentialsCacheSeconds: integer(source, 'CREDENTIALS_CACHE_SECONDS', 60, 0, 3600),
    live: {
      pollIntervalMs: integer(source, 'LIVE_POLL_INTERVAL_MS', 100, 10, 60_000),
      idleTimeoutSeconds: integer(source, 'LIVE_IDLE_TIMEOUT_SECONDS', 60, 1, 86400),
    },
  };
  if (source.problems.length > 0) throw new ConfigError(source.problems);
  return Object.freeze(config);
}

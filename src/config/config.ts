import { randomBytes } from 'node:crypto';
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
}

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

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const lowered = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(lowered)) return true;
  if (['false', '0', 'no', 'off'].includes(lowered)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function bytes(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const match = /^(\d+)\s*(b|kb|mb)?$/i.exec(raw);
  if (!match) throw new ConfigError(name, `must be a size such as 1mb or 8kb, got "${raw}"`);
  const factor = { b: 1, kb: 1024, mb: 1024 * 1024 }[(match[2] ?? 'b').toLowerCase() as 'b'];
  const value = Number(match[1]) * factor;
  if (value < 1024) throw new ConfigError(name, `must be at least 1kb, got "${raw}"`);
  return value;
}

function database(env: Env, cwd: string): DatabaseConfig {
  const url = read(env, 'DATABASE_URL');
  const poolSize = integer(env, 'DATABASE_POOL_SIZE', 10, 1, 500);
  const migrateOnStart = boolean(env, 'MIGRATE_ON_START', true);
  if (url === undefined) {
    const sqlitePath = path.resolve(cwd, read(env, 'SQLITE_PATH') ?? 'data/quiz.sqlite');
    return { dialect: 'sqlite', sqlitePath, embedded: true, poolSize, migrateOnStart };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('DATABASE_URL', 'is not a valid URL');
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  if (scheme === 'sqlite') {
    // sqlite:relative/path.db or sqlite:///absolute/path.db
    const file = decodeURIComponent(url.slice('sqlite:'.length).replace(/^\/\//, ''));
    if (file === '') throw new ConfigError('DATABASE_URL', 'names no SQLite file');
    return {
      dialect: 'sqlite',
      sqlitePath: path.resolve(cwd, file),
      embedded: false,
      poolSize,
      migrateOnStart,
    };
  }
  if (scheme !== 'mysql' && scheme !== 'mariadb') {
    throw new ConfigError(
      'DATABASE_URL',
      `must start with mysql://, mariadb:// or sqlite:, got "${scheme}:"`,
    );
  }
  if (parsed.pathname.replace(/^\//, '') === '') {
    throw new ConfigError('DATABASE_URL', 'must name a database (mysql://user@host:3306/name)');
  }
  return { dialect: scheme, url, embedded: false, poolSize, migrateOnStart };
}

function baseUrl(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('PUBLIC_BASE_URL', `is not a valid URL: "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError('PUBLIC_BASE_URL', 'must be an http or https URL');
  }
  return raw.replace(/\/+$/, '');
}

function trustProxy(env: Env): boolean | number | string {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  // A comma-separated list of addresses, subnets or the names loopback/linklocal/uniquelocal.
  if (!/^[\w.:/,\s-]+$/.test(raw)) {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be true, false, a hop count or addresses, got "${raw}"`,
    );
  }
  return raw;
}

function basePath(env: Env): string {
  const raw = read(env, 'BASE_PATH');
  if (raw === undefined || raw === '/') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+\/?$/.test(raw)) {
    throw new ConfigError('BASE_PATH', `must be a path such as /api, got "${raw}"`);
  }
  return raw.replace(/\/$/, '');
}

/**
 * Reads and validates the environment. The only place that reads process.env; everything else
 * receives a Config. Throws ConfigError naming the first bad variable.
 */
function cookieSecret(
  env: Env,
  nodeEnv: NodeEnv,
): { cookieSecret: string; cookieSecretGenerated: boolean } {
  const raw = read(env, 'COOKIE_SECRET');
  if (raw === undefined) {
    if (nodeEnv === 'production') {
      throw new ConfigError('COOKIE_SECRET', 'is required in production (at least 32 characters)');
    }
    return { cookieSecret: randomBytes(32).toString('hex'), cookieSecretGenerated: true };
  }
  if (raw.length < 32) throw new ConfigError('COOKIE_SECRET', 'must be at least 32 characters');
  return { cookieSecret: raw, cookieSecretGenerated: false };
}

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const nodeEnv = oneOf(env, 'NODE_ENV', ['development', 'production', 'test'], 'development');
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const publicBaseUrl = baseUrl(read(env, 'PUBLIC_BASE_URL') ?? `http://localhost:${port}`);
  return Object.freeze({
    nodeEnv,
    host,
    port,
    publicBaseUrl,
    basePath: basePath(env),
    database: database(env, cwd),
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS', 86400, 1, 365 * 86400),
    dataSetTtlSeconds: integer(env, 'DATASET_TTL_SECONDS', 86400, 1, 365 * 86400),
    pageSize: integer(env, 'PAGE_SIZE', 50, 1, 1000),
    logLevel: oneOf(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      nodeEnv === 'test' ? 'silent' : 'info',
    ),
    trustProxy: trustProxy(env),
    // Room for a batch of 5,000 answers with long texts (addAnswers, contract.md §9).
    bodyLimitBytes: bytes(env, 'BODY_LIMIT', 4 * 1024 * 1024),
    urlLimitBytes: bytes(env, 'URL_LIMIT', 8 * 1024),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10000, 0, 600000),
    seedDemo: boolean(env, 'SEED_DEMO', true),
    ...cookieSecret(env, nodeEnv),
    login: {
      maxFailuresPerAccount: integer(env, 'LOGIN_MAX_FAILURES_PER_ACCOUNT', 5, 1, 1000),
      maxFailuresPerIp: integer(env, 'LOGIN_MAX_FAILURES_PER_IP', 30, 1, 100000),
      failureWindowSeconds: integer(env, 'LOGIN_FAILURE_WINDOW_SECONDS', 900, 1, 86400),
    },
    webSessionTtlSeconds: integer(env, 'WEB_SESSION_TTL_SECONDS', 8 * 3600, 60, 30 * 86400),
    purgeIntervalSeconds: integer(env, 'PURGE_INTERVAL_SECONDS', 600, 1, 86400),
    rateLimit: {
      points: integer(env, 'RATE_LIMIT_POINTS', 1200, 1, 1_000_000_000),
      windowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86400),
    },
    graphqlMaxCost: integer(env, 'GRAPHQL_MAX_COST', 20000, 1, 10_000_000),
    credentialsCacheSeconds: integer(env, 'CREDENTIALS_CACHE_SECONDS', 60, 0, 3600),
    live: {
      pollIntervalMs: integer(env, 'LIVE_POLL_INTERVAL_MS', 100, 10, 60_000),
      idleTimeoutSeconds: integer(env, 'LIVE_IDLE_TIMEOUT_SECONDS', 60, 1, 86400),
    },
  });
}

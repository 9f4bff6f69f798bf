import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  DEFAULT_MIGRATION_LOCK_TIMEOUT_SECONDS,
  ENV_SCHEMA,
  type DatabaseNode,
  ENV_VARIABLES,
  type Env,
} from './config.schema';

export { DEFAULT_MIGRATION_LOCK_TIMEOUT_SECONDS, type DatabaseNode };

export type DatabaseDialect = 'mysql' | 'mariadb' | 'sqlite';

export interface DatabaseConfig {
  dialect: DatabaseDialect;
  /** Connection URL of the first node for mysql/mariadb; absent for sqlite. */
  url?: string;
  /** mysql/mariadb: the ordered nodes of DATABASE_URL, failed over in turn (src/db/failover.ts). */
  nodes?: DatabaseNode[];
  /** File path for sqlite. */
  sqlitePath?: string;
  /** True when no DATABASE_URL was given and the embedded SQLite default is used. */
  embedded: boolean;
  poolSize: number;
  migrateOnStart: boolean;
  /** How long a start waits for another instance's migrations (MIGRATION_LOCK_TIMEOUT_SECONDS). */
  migrationLockTimeoutSeconds?: number;
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
  live: {
    pollIntervalMs: number;
    idleTimeoutSeconds: number;
    /** Subscriptions one instance holds at once for a user, and for an API key. */
    maxSubscriptionsPerUser: number;
    maxSubscriptionsPerKey: number;
  };
  /**
   * Prometheus `/metrics`: served unless disabled; when a token is configured, only to requests
   * bearing it (its SHA-256 is kept, not the token).
   */
  metrics: { enabled: boolean; tokenSha256?: string };
  /**
   * Privacy of pupils' data (contract.md §6, §14): `legacyOpenReads` restores the legacy
   * service's open reads of attendance, players and aggregates over every attempt;
   * `surveyMinResponses` is the fewest attempts for which a survey's choice counts are shown;
   * `sessionJoinTtlSeconds` is how long a session's join code is valid;
   * `answerRetentionDays` is how many days after a session's start its answers are kept (0: for
   * ever), enforced by the maintenance job; `accessLogRetentionDays` how many days an
   * access-log entry is kept (0: for ever), purged by the same job.
   */
  privacy: {
    legacyOpenReads: boolean;
    surveyMinResponses: number;
    sessionJoinTtlSeconds: number;
    answerRetentionDays: number;
    accessLogRetentionDays: number;
  };
  /**
   * Webhooks (contract.md §16): `secretKey` encrypts the endpoints' signing secrets at rest:
   * WEBHOOK_SECRET_KEY, else derived from COOKIE_SECRET (required in production, so no new
   * setting is), else a fixed development key (`secretKeySource` says which); `allowedHosts` are
   * the URL hosts that may be reached over http and on loopback, private or link-local addresses
   * (tests, local receivers); `deliveryEnabled` starts the dispatcher and delivery worker
   * (WEBHOOK_DELIVERY_ENABLED); `retryBaseMs` is the first retry's delay (WEBHOOK_RETRY_BASE_MS).
   */
  webhooks: {
    secretKey: Buffer;
    secretKeySource: 'setting' | 'cookie-secret' | 'development';
    allowedHosts: readonly string[];
    deliveryEnabled: boolean;
    retryBaseMs: number;
  };
}

/**
 * The webhook secret key when neither WEBHOOK_SECRET_KEY nor COOKIE_SECRET is set (development
 * only: production requires COOKIE_SECRET): fixed rather than random, so that the secrets a
 * development database holds still open after a restart. Known to all, so it protects nothing.
 */
const DEVELOPMENT_WEBHOOK_SECRET_KEY = createHash('sha256')
  .update('quiz-results-service: development webhook secret key, not for production')
  .digest();

/**
 * The key that encrypts webhook secrets: the setting, else one derived from COOKIE_SECRET (HKDF,
 * so the cookie secret itself never encrypts anything), else the development key.
 */
function webhookSecretKey(
  setting: Buffer | undefined,
  cookieSecret: string | undefined,
): Pick<Config['webhooks'], 'secretKey' | 'secretKeySource'> {
  if (setting) return { secretKey: setting, secretKeySource: 'setting' };
  if (cookieSecret !== undefined) {
    const derived = hkdfSync('sha256', cookieSecret, '', 'quiz-results webhook secrets', 32);
    return { secretKey: Buffer.from(derived), secretKeySource: 'cookie-secret' };
  }
  return { secretKey: Buffer.from(DEVELOPMENT_WEBHOOK_SECRET_KEY), secretKeySource: 'development' };
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

type RawEnv = Readonly<Record<string, string | undefined>>;

/** The service's variables of `env`, trimmed; an empty value means the default. */
function readEnv(env: RawEnv): Record<string, string | undefined> {
  return Object.fromEntries(
    ENV_VARIABLES.map((name) => {
      const value = env[name]?.trim();
      return [name, value === '' ? undefined : value];
    }),
  );
}

/** One problem per variable (its first), in the order the schema lists them. */
function problemsOf(issues: readonly { path: PropertyKey[]; message: string }[]): ConfigProblem[] {
  const byVariable = new Map<string, string>();
  for (const issue of issues) {
    const variable = String(issue.path[0] ?? '');
    if (!byVariable.has(variable)) byVariable.set(variable, issue.message);
  }
  const order = (variable: string) => {
    const index = (ENV_VARIABLES as readonly string[]).indexOf(variable);
    return index === -1 ? ENV_VARIABLES.length : index;
  };
  return [...byVariable]
    .sort(([a], [b]) => order(a) - order(b))
    .map(([variable, message]) => ({ variable, message }));
}

function database(env: Env, cwd: string): DatabaseConfig {
  const common = {
    poolSize: env.DATABASE_POOL_SIZE,
    migrateOnStart: env.MIGRATE_ON_START,
    migrationLockTimeoutSeconds: env.MIGRATION_LOCK_TIMEOUT_SECONDS,
  };
  const target = env.DATABASE_URL;
  if (target === undefined) {
    return {
      dialect: 'sqlite',
      sqlitePath: path.resolve(cwd, env.SQLITE_PATH),
      embedded: true,
      ...common,
    };
  }
  return target.dialect === 'sqlite'
    ? { dialect: 'sqlite', sqlitePath: path.resolve(cwd, target.file), embedded: false, ...common }
    : {
        dialect: target.dialect,
        url: target.url,
        nodes: target.nodes,
        embedded: false,
        ...common,
      };
}

/**
 * Reads and validates the environment. The only place that reads process.env; everything else
 * receives a Config. Throws one ConfigError naming every bad variable.
 */
export function loadConfig(env: RawEnv = process.env, cwd: string = process.cwd()): Config {
  const parsed = ENV_SCHEMA.safeParse(readEnv(env));
  if (!parsed.success) throw new ConfigError(problemsOf(parsed.error.issues));
  const e = parsed.data;
  const config: Config = {
    nodeEnv: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicBaseUrl: e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`,
    basePath: e.BASE_PATH,
    database: database(e, cwd),
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    dataSetTtlSeconds: e.DATASET_TTL_SECONDS,
    pageSize: e.PAGE_SIZE,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    trustProxy: e.TRUST_PROXY,
    bodyLimitBytes: e.BODY_LIMIT,
    urlLimitBytes: e.URL_LIMIT,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    seedDemo: e.SEED_DEMO,
    cookieSecret: e.COOKIE_SECRET ?? randomBytes(32).toString('hex'),
    cookieSecretGenerated: e.COOKIE_SECRET === undefined,
    login: {
      maxFailuresPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
      failureWindowSeconds: e.LOGIN_FAILURE_WINDOW_SECONDS,
    },
    webSessionTtlSeconds: e.WEB_SESSION_TTL_SECONDS,
    purgeIntervalSeconds: e.PURGE_INTERVAL_SECONDS,
    rateLimit: { points: e.RATE_LIMIT_POINTS, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS },
    graphqlMaxCost: e.GRAPHQL_MAX_COST,
    credentialsCacheSeconds: e.CREDENTIALS_CACHE_SECONDS,
    live: {
      pollIntervalMs: e.LIVE_POLL_INTERVAL_MS,
      idleTimeoutSeconds: e.LIVE_IDLE_TIMEOUT_SECONDS,
      maxSubscriptionsPerUser: e.LIVE_MAX_SUBSCRIPTIONS_PER_USER,
      maxSubscriptionsPerKey: e.LIVE_MAX_SUBSCRIPTIONS_PER_KEY,
    },
    metrics: {
      enabled: e.METRICS_ENABLED,
      tokenSha256:
        e.METRICS_TOKEN === undefined
          ? undefined
          : createHash('sha256').update(e.METRICS_TOKEN).digest('hex'),
    },
    privacy: {
      legacyOpenReads: e.LEGACY_OPEN_READS,
      surveyMinResponses: e.SURVEY_MIN_RESPONSES,
      sessionJoinTtlSeconds: e.SESSION_JOIN_TTL_SECONDS,
      answerRetentionDays: e.ANSWER_RETENTION_DAYS,
      accessLogRetentionDays: e.ACCESS_LOG_RETENTION_DAYS,
    },
    webhooks: {
      ...webhookSecretKey(e.WEBHOOK_SECRET_KEY, e.COOKIE_SECRET),
      allowedHosts: Object.freeze([...e.WEBHOOK_ALLOWED_HOSTS]),
      deliveryEnabled: e.WEBHOOK_DELIVERY_ENABLED,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
    },
  };
  return Object.freeze(config);
}

import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * The environment the service reads, as one zod schema: each variable once, with its type, its
 * default and its rule. Values arrive trimmed, an empty one as absent (config.ts); every message
 * completes a sentence that starts with the variable's name ("PORT must be a whole number, ...").
 */

/** How long a start waits, by default, for another instance's migrations. */
export const DEFAULT_MIGRATION_LOCK_TIMEOUT_SECONDS = 300;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;

const quoted = (input: unknown) => `"${String(input)}"`;

/** `capName` names a maximum that is a rule rather than a bound of sense (a cap). */
function wholeNumber(min: number, max: number, capName?: string) {
  const range = (issue: { input?: unknown }) =>
    capName !== undefined && Number(issue.input) > max
      ? `must be at most ${max} (${capName}, the cap), got ${String(issue.input)}`
      : `must be between ${min} and ${max}, got ${String(issue.input)}`;
  return z
    .string()
    .regex(/^\d+$/, { error: (issue) => `must be a whole number, got ${quoted(issue.input)}` })
    .transform(Number)
    .pipe(z.number().min(min, { error: range }).max(max, { error: range }));
}

const flag = z.stringbool({
  truthy: ['true', '1', 'yes', 'on'],
  falsy: ['false', '0', 'no', 'off'],
  error: (issue) => `must be true or false, got ${quoted(issue.input)}`,
});

function oneOf<const T extends readonly [string, ...string[]]>(allowed: T) {
  return z.enum(allowed, {
    error: (issue) => `must be one of ${allowed.join(', ')}, got ${quoted(issue.input)}`,
  });
}

/** A size in bytes written as `512kb`, `4mb` or `2048` (b), at least 1kb. */
const size = z.string().transform((raw, ctx) => {
  const match = /^(\d+)\s*(b|kb|mb)?$/i.exec(raw);
  if (!match) {
    ctx.addIssue({ code: 'custom', message: `must be a size such as 1mb or 8kb, got "${raw}"` });
    return z.NEVER;
  }
  const factor = { b: 1, kb: 1024, mb: 1024 * 1024 }[(match[2] ?? 'b').toLowerCase() as 'b'];
  const value = Number(match[1]) * factor;
  if (value < 1024) {
    ctx.addIssue({ code: 'custom', message: `must be at least 1kb, got "${raw}"` });
    return z.NEVER;
  }
  return value;
});

/** One MySQL/MariaDB server of DATABASE_URL's host list. */
export interface DatabaseNode {
  host: string;
  port: number;
}

/**
 * Where DATABASE_URL points: MySQL/MariaDB servers, or a SQLite file (relative to the cwd). For
 * MySQL/MariaDB, `url` names the first node and carries the credentials, database and options;
 * `nodes` is the ordered list the service fails over along (src/db/failover.ts).
 */
export type DatabaseTarget =
  | { dialect: 'mysql' | 'mariadb'; url: string; nodes: DatabaseNode[] }
  | { dialect: 'sqlite'; file: string };

const DEFAULT_MYSQL_PORT = 3306;

/** scheme://[userinfo@]host[:port][,host[:port]...][/path][?query]: WHATWG URLs take one host. */
const HOST_LIST = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@]*@)?([^/?#]*)(.*)$/i;

function parseNode(text: string): DatabaseNode | undefined {
  let parsed: URL;
  try {
    parsed = new URL(`mysql://${text}`);
  } catch {
    return undefined;
  }
  if (parsed.hostname === '' || `${parsed.host}` !== text.toLowerCase()) return undefined;
  return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : DEFAULT_MYSQL_PORT };
}

const databaseUrl = z.string().transform((url, ctx): DatabaseTarget => {
  const bad = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  const [, prefix = '', userinfo = '', hostList = '', rest = ''] = HOST_LIST.exec(url) ?? [];
  const hosts = hostList.split(',');
  // The URL of the first node stands for all: credentials, database and options are shared.
  const single = hosts.length > 1 ? `${prefix}${userinfo}${hosts[0]}${rest}` : url;
  let parsed: URL;
  try {
    parsed = new URL(single);
  } catch {
    return bad('is not a valid URL');
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  if (scheme === 'sqlite') {
    // sqlite:relative/path.db or sqlite:///absolute/path.db
    const file = decodeURIComponent(url.slice('sqlite:'.length).replace(/^\/\//, ''));
    return file === '' ? bad('names no SQLite file') : { dialect: 'sqlite', file };
  }
  if (scheme !== 'mysql' && scheme !== 'mariadb') {
    return bad(`must start with mysql://, mariadb:// or sqlite:, got "${scheme}:"`);
  }
  if (parsed.pathname.replace(/^\//, '') === '') {
    return bad('must name a database (mysql://user@host:3306/name)');
  }
  const nodes: DatabaseNode[] = [];
  for (const host of hosts) {
    const node = parseNode(host);
    if (!node) return bad(`has a bad host in its list: "${host}" (host:port,host:port)`);
    nodes.push(node);
  }
  return { dialect: scheme, url: single, nodes };
});

const httpUrl = z.string().transform((raw, ctx) => {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    ctx.addIssue({ code: 'custom', message: `is not a valid URL: "${raw}"` });
    return z.NEVER;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: 'must be an http or https URL' });
    return z.NEVER;
  }
  return raw.replace(/\/+$/, '');
});

const basePath = z
  .string()
  .refine((raw) => raw === '/' || /^(\/[A-Za-z0-9._~-]+)+\/?$/.test(raw), {
    error: (issue) => `must be a path such as /api, got ${quoted(issue.input)}`,
  })
  .transform((raw) => raw.replace(/\/$/, ''));

/** Prefix length of an IPv4 netmask such as 255.255.0.0; undefined if its bits are not contiguous. */
function netmaskLength(mask: string): number | undefined {
  const bits = mask
    .split('.')
    .map((octet) => Number(octet).toString(2).padStart(8, '0'))
    .join('');
  return /^(1*)0*$/.exec(bits)?.[1]?.length;
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

/** Express 'trust proxy': false, true, a hop count, or the list itself. */
const trustProxy = z.string().transform((raw, ctx): boolean | number | string => {
  if (raw === 'false' || raw === '0') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const refused = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => !trustedProxyEntry(entry));
  if (refused.length === 0) return raw;
  ctx.addIssue({
    code: 'custom',
    message: `must be true, false, a hop count, or a comma-separated list of IP addresses, subnets (10.0.0.0/8) and loopback, linklocal, uniquelocal; ${refused.map(quoted).join(', ')} ${refused.length === 1 ? 'is' : 'are'} none of these`,
  });
  return z.NEVER;
});

/** A bearer token: visible ASCII without spaces, long enough not to be guessed. */
const bearerToken = z
  .string()
  .min(16, { error: 'must be at least 16 characters' })
  .regex(/^[\x21-\x7e]+$/, { error: 'must be printable ASCII without spaces' });

/**
 * A 32-byte key written as 64 hex digits or as base64 (standard or URL-safe alphabet): the
 * output of `openssl rand -hex 32` or `openssl rand -base64 32`.
 */
const key32 = z.string().transform((raw, ctx) => {
  const bytes = /^[0-9a-f]{64}$/i.test(raw)
    ? Buffer.from(raw, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(raw)
      ? Buffer.from(raw, 'base64')
      : undefined;
  if (bytes?.length === 32) return bytes;
  ctx.addIssue({
    code: 'custom',
    message: 'must be 32 bytes written as 64 hex digits or as base64 (openssl rand -hex 32)',
  });
  return z.NEVER;
});

/**
 * Host names or IP addresses, comma-separated, each as the WHATWG URL parser writes a URL's
 * hostname (lower case, IPv6 in brackets, IPv4 in dotted decimal), so entries compare with
 * `new URL(url).hostname` however the operator or the endpoint's owner spelled them.
 */
const hostList = z.string().transform((raw, ctx) => {
  const hosts: string[] = [];
  for (const entry of raw.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const literal = isIP(entry) === 6 ? `[${entry}]` : entry;
    let parsed: URL | undefined;
    try {
      parsed = new URL(`http://${literal}`);
    } catch {
      parsed = undefined;
    }
    if (
      !parsed ||
      parsed.host !== parsed.hostname ||
      parsed.pathname !== '/' ||
      /[@/?#]/.test(literal)
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a comma-separated list of host names or IP addresses (no port, no path), got ${quoted(entry)}`,
      });
      return z.NEVER;
    }
    hosts.push(parsed.hostname);
  }
  return hosts;
});

const DAY = 86400;

/** The longest a data set may live (contract.md §14.5): 7 days. */
export const DATASET_TTL_CAP_SECONDS = 7 * DAY;

/**
 * Every variable, in the order problems are reported. Defaults that depend on another variable
 * (PUBLIC_BASE_URL on PORT, LOG_LEVEL on NODE_ENV, COOKIE_SECRET in production, WEBHOOK_SECRET_KEY
 * on COOKIE_SECRET) are applied or required by config.ts.
 */
export const ENV_SCHEMA = z
  .object({
    NODE_ENV: oneOf(NODE_ENVS).default('development'),
    HOST: z.string().default('127.0.0.1'),
    PORT: wholeNumber(0, 65535).default(3000),
    PUBLIC_BASE_URL: httpUrl.optional(),
    BASE_PATH: basePath.default(''),
    DATABASE_URL: databaseUrl.optional(),
    DATABASE_POOL_SIZE: wholeNumber(1, 500).default(10),
    MIGRATE_ON_START: flag.default(true),
    SQLITE_PATH: z.string().default('data/quiz.sqlite'),
    TOKEN_TTL_SECONDS: wholeNumber(1, 365 * DAY).default(DAY),
    // Set tables hold copies of user ids and scores: a week at most (contract.md §14.5).
    DATASET_TTL_SECONDS: wholeNumber(1, DATASET_TTL_CAP_SECONDS, '7 days').default(DAY),
    PAGE_SIZE: wholeNumber(1, 1000).default(50),
    LOG_LEVEL: oneOf(LOG_LEVELS).optional(),
    TRUST_PROXY: trustProxy.default(false),
    // Room for a batch of 5,000 answers with long texts (addAnswers, contract.md §9).
    BODY_LIMIT: size.default(4 * 1024 * 1024),
    URL_LIMIT: size.default(8 * 1024),
    SHUTDOWN_TIMEOUT_MS: wholeNumber(0, 600_000).default(10_000),
    MIGRATION_LOCK_TIMEOUT_SECONDS: wholeNumber(1, DAY).default(
      DEFAULT_MIGRATION_LOCK_TIMEOUT_SECONDS,
    ),
    SEED_DEMO: flag.default(true),
    COOKIE_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    LOGIN_MAX_FAILURES_PER_ACCOUNT: wholeNumber(1, 1000).default(5),
    LOGIN_MAX_FAILURES_PER_IP: wholeNumber(1, 100_000).default(30),
    LOGIN_FAILURE_WINDOW_SECONDS: wholeNumber(1, DAY).default(900),
    WEB_SESSION_TTL_SECONDS: wholeNumber(60, 30 * DAY).default(8 * 3600),
    PURGE_INTERVAL_SECONDS: wholeNumber(1, DAY).default(600),
    RATE_LIMIT_POINTS: wholeNumber(1, 1_000_000_000).default(1200),
    RATE_LIMIT_WINDOW_SECONDS: wholeNumber(1, DAY).default(60),
    GRAPHQL_MAX_COST: wholeNumber(1, 10_000_000).default(20_000),
    CREDENTIALS_CACHE_SECONDS: wholeNumber(0, 3600).default(60),
    LIVE_POLL_INTERVAL_MS: wholeNumber(10, 60_000).default(100),
    LIVE_IDLE_TIMEOUT_SECONDS: wholeNumber(1, DAY).default(60),
    // Live subscriptions an instance holds at once for one user, and for one API key.
    LIVE_MAX_SUBSCRIPTIONS_PER_USER: wholeNumber(1, 100_000).default(50),
    LIVE_MAX_SUBSCRIPTIONS_PER_KEY: wholeNumber(1, 1_000_000).default(1_000),
    METRICS_ENABLED: flag.default(true),
    METRICS_TOKEN: bearerToken.optional(),
    LEGACY_OPEN_READS: flag.default(false),
    SURVEY_MIN_RESPONSES: wholeNumber(1, 1_000_000).default(5),
    SESSION_JOIN_TTL_SECONDS: wholeNumber(60, 365 * DAY).default(DAY),
    // Days after a session's start that its answers are kept; 0 keeps them for ever.
    ANSWER_RETENTION_DAYS: wholeNumber(0, 100 * 365).default(730),
    // Days an access-log entry is kept; 0 keeps them for ever.
    ACCESS_LOG_RETENTION_DAYS: wholeNumber(0, 100 * 365).default(365),
    // Encrypts the webhook endpoints' signing secrets at rest (src/security/secret-box.ts).
    WEBHOOK_SECRET_KEY: key32.optional(),
    // Hosts a webhook may reach over http and on a loopback, private or link-local address.
    WEBHOOK_ALLOWED_HOSTS: hostList.default([]),
    // Whether this instance dispatches the outbox and sends deliveries (false: writes still queue).
    WEBHOOK_DELIVERY_ENABLED: flag.default(true),
    // The first retry's delay; each next one doubles it (webhook-retry.ts), jittered.
    WEBHOOK_RETRY_BASE_MS: wholeNumber(1, 3_600_000).default(30_000),
  })
  .superRefine(
    (env, ctx) => {
      if (env.NODE_ENV === 'production' && env.COOKIE_SECRET === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['COOKIE_SECRET'],
          message: 'is required in production (at least 32 characters)',
        });
      }
    },
    // Checked even when other variables are bad, so that every problem is told at once.
    { when: () => true },
  );

export type Env = z.output<typeof ENV_SCHEMA>;

/** The name of every variable the service reads, in schema order. */
export const ENV_VARIABLES: readonly (keyof Env)[] = Object.keys(ENV_SCHEMA.shape) as (keyof Env)[];

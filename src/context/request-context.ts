import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { databaseOf, type Database } from '../db/database';
import type { Config } from '../config/config';
import type { PolicyRequester } from '../domain/policy/access.policy';
import { giveBackSlice, takeSlice } from '../db/rate-limit-lease.store';
import type { Logger } from '../observability/logger';
import { ServiceMetrics } from '../observability/metrics.registry';
import { poolUsageOf } from '../db/pool-usage';
import { createDatabaseSessionChangeFeed, type SessionChangeFeed } from './session-change.feed';
import { KeyUsageRecorder } from './key-usage.recorder';
import { ApiKeyRateLimits } from './api-key-rate-limits';
import { createLoaders, type Loaders } from './loaders';
import { CredentialsCache } from './credentials.cache';
import { CredentialChangesWatch } from './credential-changes.watch';
import { ADMITTED, type Admission } from './admission';
import { holdsSecret } from '../observability/secret-shapes';

/** Who is asking. An operator is the command line: trusted, outside the API's permission policy. */
export type Requester = PolicyRequester;

/** What every request shares, whichever transport it came by; services take it first. */
export interface AppDeps {
  config: Config;
  /** The database port: dialect, read and write handles. */
  db: Database;
  logger: Logger;
  /** Last use of API keys, written in batches by the jobs. */
  keyUsage: KeyUsageRecorder;
  /** The rate-limit budgets of the API keys: slices leased from the database, spent in memory. */
  rateLimits: ApiKeyRateLimits;
  /**
   * Changes of sessions' answers, for live results: a writer calls `changed(sessionId)` after
   * its commit so that this instance's subscribers hear at once; the others read the markers.
   */
  sessionChanges: SessionChangeFeed;
  /**
   * Recently looked-up credentials, on MySQL/MariaDB where a lookup is a round trip (SQLite reads
   * them in process); undefined when disabled.
   */
  credentialsCache?: CredentialsCache;
  /** Empties the credentials cache when credentials change anywhere; with the cache only. */
  credentialChanges?: CredentialChangesWatch;
  /** This instance's Prometheus metrics (a registry of its own), served at /metrics. */
  metrics: ServiceMetrics;
}

export function createAppDeps(config: Config, dataSource: DataSource, logger: Logger): AppDeps {
  const db = databaseOf(dataSource);
  const { points, windowSeconds } = config.rateLimit;
  // Pool gauges read mysql2's pools in memory at each scrape; SQLite has no pool to tell of.
  const metrics = new ServiceMetrics(
    db.dialect.name === 'mysql'
      ? () => poolUsageOf(dataSource, config.database.poolSize)
      : undefined,
  );
  const rateLimits = new ApiKeyRateLimits(
    {
      take: (request) => takeSlice(db, request),
      giveBack: (key, given, expire) => giveBackSlice(db, key, given, expire),
    },
    points,
    windowSeconds,
    () => metrics.countRateLimitLease(),
  );
  const sessionChanges = createDatabaseSessionChangeFeed(db, logger, {
    intervalMs: config.live.pollIntervalMs,
  });
  const credentialsCache =
    db.dialect.name === 'mysql' && config.credentialsCacheSeconds > 0
      ? new CredentialsCache(config.credentialsCacheSeconds * 1000)
      : undefined;
  return {
    config,
    db,
    logger,
    keyUsage: new KeyUsageRecorder(),
    rateLimits,
    sessionChanges,
    credentialsCache,
    credentialChanges: credentialsCache
      ? new CredentialChangesWatch(db, credentialsCache, logger)
      : undefined,
    metrics,
  };
}

export interface RequestContext extends AppDeps {
  requestId: string;
  /** The legacy operation name (getQuiz, ...), used in every error the request reports. */
  operation: string;
  requester: Requester;
  /** Batch loaders of this request, shared by both transports. */
  loaders: Loaders;
  /**
   * The request's rate-limit charge, when its operation runs beside it (admission.ts); writers
   * wait for it before they commit. Already admitted otherwise.
   */
  admission: Admission;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * A caller-supplied request id is kept only when it is short and plain, so logs stay clean, and
 * is no secret: it is repeated in the X-Request-Id header, 500 answers and log lines.
 */
export function requestIdFrom(header: string | undefined): string {
  return header && REQUEST_ID.test(header) && !holdsSecret(header) ? header : randomUUID();
}

export function createRequestContext(
  deps: AppDeps,
  fields: {
    requestId?: string;
    operation: string;
    requester: Requester;
  },
): RequestContext {
  return {
    ...deps,
    requestId: fields.requestId ?? randomUUID(),
    operation: fields.operation,
    requester: fields.requester,
    admission: ADMITTED,
    loaders: createLoaders(deps.db, fields.requester),
    logger: deps.logger.child({ requestId: fields.requestId, operation: fields.operation }),
  };
}

/** The context of an operator command (CLI). */
export function operatorContext(deps: AppDeps, operation: string): RequestContext {
  return createRequestContext(deps, { operation, requester: { kind: 'operator' } });
}

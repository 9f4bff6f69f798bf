import { Writable } from 'node:stream';
import type { DataSource } from 'typeorm';
import { loadConfig, type Config } from '../../src/config/config';
import { startServer, type RunningServer } from '../../src/app/server';
import { createAppDeps, type AppDeps } from '../../src/context/request-context';
import type { AppOptions } from '../../src/app/app';
import { createLogger } from '../../src/observability/logger';
import { assertMatchesOpenApi, documentedOperation } from './openapi-validator';

/** Everything the app logged, as raw text and as parsed records. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    callback();
  }

  get text(): string {
    return this.lines.join('\n');
  }

  records(): Record<string, unknown>[] {
    return this.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

export interface TestApp {
  url: string;
  config: Config;
  logs: LogCapture;
  running: RunningServer;
  /** The app's dependencies, for suites that run a maintenance job of this very app. */
  deps: AppDeps;
  get: (path: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
}

/** Starts the real app on a free port over the given database, logging at debug into memory. */
export async function startTestApp(
  dataSource: DataSource,
  env: Record<string, string> = {},
  options: AppOptions = {},
): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: 'debug',
    // A suite sends far more requests a minute than a client may; the limit has suites of its own.
    RATE_LIMIT_POINTS: '1000000',
    // Fixtures date their sessions years back: a purge job must not take their answers
    // mid-suite. The retention suite asks for a period of its own.
    ANSWER_RETENTION_DAYS: '0',
    // The webhook loop polls the database every 200 ms: suites that count statements must not
    // see its reads. The webhook suites turn it on.
    WEBHOOK_DELIVERY_ENABLED: 'false',
    ...env,
  });
  const logs = new LogCapture();
  const logger = createLogger(config.logLevel, logs);
  const deps = createAppDeps(config, dataSource, logger);
  const running = await startServer(deps, options);
  return {
    url: running.url,
    config,
    logs,
    running,
    deps,
    get: async (path, init) => {
      const res = await fetch(`${running.url}${path}`, init);
      // Every REST answer a test sees is checked against the committed OpenAPI description.
      if (
        documentedOperation(path) &&
        res.headers.get('content-type')?.startsWith('application/json')
      ) {
        assertMatchesOpenApi(path, res.status, await res.clone().json());
      }
      return res;
    },
    close: () => running.close(),
  };
}

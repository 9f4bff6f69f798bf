import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/config';
import { openDatabase } from './db/data-source';
import { createLogger } from './observability/logger';
import { startServer } from './app/server';
import { createAppDeps } from './context/request-context';
import { prepareEmbeddedDemo } from './data/demo/demo-setup';
import { frontDoorBanner, frontDoorLinks } from './api/web/landing-page.links';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const dataSource = await openDatabase(config.database, { migrationLog: logger });
  const deps = createAppDeps(config, dataSource, logger);
  const demo = config.database.embedded ? await prepareEmbeddedDemo(deps) : undefined;
  const frontDoor = { demoApiKey: demo?.apiKey };
  const running = await startServer(deps, frontDoor);

  const shutdown = (signal: string) => {
    // Whatever happens while closing (even a broken log pipe), the process ends, and not later
    // than the drain timeout allows.
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 5000).unref();
    try {
      logger.info({ signal }, 'signal received');
    } catch {
      // The log destination may already be gone.
    }
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        try {
          logger.error({ err: error }, 'shutdown failed');
        } finally {
          process.exit(1);
        }
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));

  logger.info(
    { url: running.url, database: config.database.dialect, pid: process.pid },
    'listening',
  );
  const lines = [
    `Quiz results service listening on ${running.url} (${config.database.dialect}${config.database.embedded ? `, embedded file ${config.database.sqlitePath}` : ''})`,
    ...frontDoorBanner(running.url, frontDoorLinks(config, frontDoor)),
  ];
  if (demo) lines.push(...demo.banner(running.url));
  if (config.privacy.legacyOpenReads) {
    const warning =
      "LEGACY_OPEN_READS=true: pupils' attendance, who played what and per-pupil aggregated results are readable with an API key alone";
    logger.warn({ setting: 'LEGACY_OPEN_READS' }, warning);
    lines.push(`Warning: ${warning}.`);
  }
  if (config.privacy.answerRetentionDays === 0) {
    const notice =
      'ANSWER_RETENTION_DAYS=0: answers and attendance are kept for ever, no retention period applies';
    logger.warn({ setting: 'ANSWER_RETENTION_DAYS' }, notice);
    lines.push(`Warning: ${notice}.`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});

import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/config';
import { openDatabase } from './db/data-source';
import { createLogger } from './observability/logger';
import { startServer } from './app/server';
import { prepareEmbeddedDemo } from './data/demo/demo-setup';

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
  const dataSource = await openDatabase(config.database);
  const deps = { config, dataSource, logger };
  const demo = config.database.embedded ? await prepareEmbeddedDemo(deps) : undefined;
  const running = await startServer(deps);

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'signal received');
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));

  logger.info({ url: running.url, database: config.database.dialect }, 'listening');
  const lines = [
    `Quiz results service listening on ${running.url} (${config.database.dialect}${config.database.embedded ? `, embedded file ${config.database.sqlitePath}` : ''})`,
    `Health: ${running.url}/healthz`,
  ];
  if (demo) lines.push(...demo.banner(running.url));
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});

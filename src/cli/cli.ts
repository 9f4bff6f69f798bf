import { Command, CommanderError } from 'commander';
import type { DataSource } from 'typeorm';
import { ConfigError, loadConfig, type Config } from '../config/config';
import { serviceVersion } from '../config/package-info';
import { migrate, openDatabase } from '../db/data-source';
import { MigrationLockTimeoutError, type MigrationLog } from '../db/migration-lock';
import { createAppDeps, operatorContext, type AppDeps } from '../context/request-context';
import { ServiceApiError } from '../errors';
import { ImportError } from '../data/import/import-validator';
import { createLogger } from '../observability/logger';
// The kinds of sets, registered with the set engine (erasure deletes sets of every kind).
import '../services/set-kinds/set-kinds.registry';
import { CliError, type CliIo } from './cli-common';
import { progressReporter } from './progress';
import { addAccountCommands } from './account.commands';
import { addDataCommands } from './data.commands';
import { addPersonalDataCommands } from './personal-data.commands';
import { addPrivacyCommands } from './privacy.command';
import { addSimulateCommand } from './simulate.command';
import { addErasureCommand } from './erasure.command';

export type { CliIo } from './cli-common';

/** Tells the operator, on stderr, that db:migrate waits for another instance's migrations. */
function waitNotices(stderr: NodeJS.WritableStream): MigrationLog {
  return {
    info: (fields) => {
      const { holder, expiresAt } = fields as { holder?: string; expiresAt?: string };
      if (holder)
        stderr.write(`waiting for the migrations of ${holder} (lease until ${expiresAt} UTC)\n`);
    },
    warn: (_fields, message) => stderr.write(`warning: ${message}\n`),
  };
}

/** Runs one CLI command; returns the exit code instead of exiting, so tests can call it. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // One progress bar per command; every other line written clears it first (it is drawn again
  // at its next report), so no message runs into a bar.
  const progress = progressReporter(io.stderr);
  const print = (text: string) => {
    progress.interrupt();
    io.stdout.write(`${text}\n`);
  };
  const logLines = {
    write: (line: string) => {
      progress.interrupt();
      io.stdout.write(line);
    },
  };
  let config: Config | undefined;
  let dataSource: DataSource | undefined;

  const deps = async (): Promise<AppDeps> => {
    config ??= loadConfig(io.env, io.cwd);
    dataSource ??= await openDatabase(config.database);
    return createAppDeps(
      config,
      dataSource,
      createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, logLines),
    );
  };
  const context = async (operation: string) => operatorContext(await deps(), operation);

  const program = new Command('quiz-cli')
    .description(
      'Operator commands of the quiz results service (the database comes from DATABASE_URL).',
    )
    .version(serviceVersion(), '-V, --version', 'print the version of the service')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run with --help for usage)');

  program
    .command('db:migrate')
    .description('apply pending migrations')
    .action(async () => {
      config = loadConfig(io.env, io.cwd);
      dataSource = await openDatabase({ ...config.database, migrateOnStart: false });
      const applied = await migrate(dataSource, config.database, waitNotices(io.stderr));
      print(
        applied.length
          ? `Applied ${applied.map((m) => m.name).join(', ')}`
          : 'No pending migration.',
      );
    });

  addAccountCommands(program, { io, print, context });
  addDataCommands(program, { print, progress, database: async () => (await deps()).db });
  addSimulateCommand(program, { io, print, progress, context });
  addPrivacyCommands(program, { print, database: async () => (await deps()).db });
  addPersonalDataCommands(program, { io, context });
  addErasureCommand(program, { print, deps });

  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; usage errors were already printed by commander.
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' ? 0 : 2;
    }
    const message =
      error instanceof ServiceApiError
        ? `${error.extras.parameterName ? `${error.extras.parameterName}: ` : ''}${error.reason}`
        : error instanceof ImportError ||
            error instanceof CliError ||
            error instanceof ConfigError ||
            error instanceof MigrationLockTimeoutError
          ? error.message
          : `unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
    progress.end();
    io.stderr.write(`error: ${message}\n`);
    return 1;
  } finally {
    if (dataSource?.isInitialized) await dataSource.destroy();
  }
}

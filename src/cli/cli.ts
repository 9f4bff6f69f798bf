import fs from 'node:fs';
import { Command, CommanderError } from 'commander';
import type { DataSource } from 'typeorm';
import { ConfigError, loadConfig, type Config } from '../config/config';
import { serviceVersion } from '../config/package-info';
import { migrate, openDatabase } from '../db/data-source';
import { MigrationLockTimeoutError, type MigrationLog } from '../db/migration-lock';
import { createAppDeps, operatorContext, type AppDeps } from '../context/request-context';
import { ServiceApiError } from '../errors';
import { ImportError } from '../data/import/import-validator';
import { loadData } from '../data/import/bulk-loader';
import { generateData } from '../data/generate/synthetic-data';
import { createLogger } from '../observability/logger';
import { hashPassword } from '../security/password';
import { createUser, findUserByEmail } from '../services/users/user.service';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys/api-key.service';
import { CliError, fraction, isoDateTime, wholeNumber, type CliIo } from './cli-common';
import { progressReporter } from './progress';
import { addPrivacyCommands } from './privacy.command';
import { addSimulateCommand } from './simulate.command';

export type { CliIo } from './cli-common';

async function readAll(stream: NodeJS.ReadableStream | undefined): Promise<string> {
  if (!stream) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Why a file could not be read, in words (the system's code kept for searching). */
function fileErrorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const reasons: Record<string, string> = {
    ENOENT: 'no such file',
    EACCES: 'permission denied',
    EISDIR: 'it is a folder',
  };
  return code && reasons[code] ? `${reasons[code]} (${code})` : String((error as Error)?.message);
}

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

  program
    .command('user:create')
    .description('create an account (the password is stored as an argon2id hash)')
    .requiredOption('--email <email>', 'login email')
    .requiredOption('--first-name <name>', 'first name')
    .requiredOption('--last-name <name>', 'last name')
    .option('--password <password>', 'password (at least 10 characters)')
    .option(
      '--password-stdin',
      'read the password from standard input (keeps it out of shell history)',
    )
    .option('--picture-url <url>', 'picture URL')
    .option('--public-profile', 'make the profile public', false)
    .option('--can-create-private-quizzes', 'allow private quizzes', false)
    .action(async (options: Record<string, string | boolean | undefined>) => {
      const password = options.passwordStdin
        ? await readAll(io.stdin)
        : (options.password as string | undefined);
      if (!password) throw new CliError('a password is needed: --password or --password-stdin');
      const user = await createUser(await context('user:create'), {
        email: options.email as string,
        password,
        firstName: options.firstName as string,
        lastName: options.lastName as string,
        pictureUrl: (options.pictureUrl as string | undefined) ?? null,
        publicProfile: options.publicProfile === true,
        canCreatePrivateQuizzes: options.canCreatePrivateQuizzes === true,
      });
      print(`Created user ${user.id} <${user.email}>`);
    });

  program
    .command('key:create')
    .description('create an API key bound to one host; the key is printed once')
    .requiredOption(
      '--host <host>',
      'domain name or IP address the key is bound to (localhost for local use)',
    )
    .option('--owner <email>', 'email of the owning account')
    .option('--label <label>', 'a name to tell keys apart', '')
    .action(async (options: { host: string; owner?: string; label: string }) => {
      const ctx = await context('key:create');
      let ownerId: number | null = null;
      if (options.owner) {
        const owner = await findUserByEmail(ctx, options.owner);
        if (!owner) throw new CliError(`no account with email ${options.owner}`);
        ownerId = owner.id;
      }
      const { apiKey, secret } = await createApiKey(ctx, {
        host: options.host,
        ownerId,
        label: options.label,
      });
      print(`Created API key ${apiKey.id} for host ${apiKey.host}. It is shown only now:`);
      print(secret);
    });

  program
    .command('key:list')
    .description('list API keys (never the keys themselves)')
    .option('--owner <email>', 'only the keys of this account')
    .option('--json', 'print JSON')
    .action(async (options: { owner?: string; json?: boolean }) => {
      const ctx = await context('key:list');
      let ownerId: number | undefined;
      if (options.owner) {
        const owner = await findUserByEmail(ctx, options.owner);
        if (!owner) throw new CliError(`no account with email ${options.owner}`);
        ownerId = owner.id;
      }
      const keys = await listApiKeys(ctx, ownerId);
      const rows = keys.map((key) => ({
        id: key.id,
        prefix: `${key.keyPrefix}…`,
        host: key.host,
        label: key.label,
        owner: key.ownerId,
        status: key.revokedAt ? 'revoked' : 'active',
        created: key.createdAt.toISOString(),
        lastUsed: key.lastUsedAt?.toISOString() ?? null,
      }));
      if (options.json) print(JSON.stringify(rows, null, 2));
      else if (rows.length === 0) print('No API key.');
      else {
        print(
          ['id', 'prefix', 'host', 'label', 'owner', 'status', 'created', 'last used'].join('\t'),
        );
        for (const row of rows)
          print(
            Object.values(row)
              .map((v) => v ?? '-')
              .join('\t'),
          );
      }
    });

  program
    .command('key:revoke')
    .description('revoke an API key: later requests with it are refused')
    .argument('<id>', 'key id (see key:list)', wholeNumber(1, 2 ** 31 - 1))
    .action(async (id: number) => {
      // Revoking twice succeeds (exit 0: the key is revoked, as asked) and says nothing changed.
      const asked = new Date();
      const key = await revokeApiKey(await context('key:revoke'), id);
      if (key.revokedAt && key.revokedAt < asked) {
        print(
          `API key ${key.id} (${key.host}) was already revoked on ${key.revokedAt.toISOString()}.`,
        );
      } else print(`Revoked API key ${key.id} (${key.host}).`);
    });

  program
    .command('import')
    .description('load a JSON data file (see README: data file format) in one transaction')
    .argument('<file>', 'path of the JSON file')
    .option('--print-ids', 'print the ids given to every ref as JSON')
    .action(async (file: string, options: { printIds?: boolean }) => {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (error) {
        throw new CliError(`cannot read ${file}: ${fileErrorReason(error)}`);
      }
      let document: unknown;
      try {
        document = JSON.parse(text);
      } catch (error) {
        throw new CliError(`${file} is not valid JSON: ${(error as Error).message}`);
      }
      const { db } = await deps();
      const ids = await loadData(db.write, document as Parameters<typeof loadData>[1], {
        onProgress: progress,
      }).finally(progress.end);
      if (options.printIds) print(JSON.stringify(ids, null, 2));
      else {
        const counts = Object.entries(ids).map(
          ([kind, refs]) => `${Object.keys(refs).length} ${kind}`,
        );
        print(`Imported ${counts.join(', ')}.`);
      }
    });

  program
    .command('generate')
    .description('generate deterministic synthetic data (same seed, same data) and load it')
    .option(
      '--users <n>',
      'number of users (about 1 in 30 are teachers)',
      wholeNumber(1, 10_000_000),
      1000,
    )
    .option('--quizzes <n>', 'number of quizzes', wholeNumber(1, 1_000_000), 50)
    .option('--questions <n>', 'questions per quiz', wholeNumber(1, 100), 20)
    .option('--sessions <n>', 'number of sessions', wholeNumber(1, 10_000_000), 100)
    .option(
      '--participation <p>',
      'share of (user, quiz) pairs with an attempt: 0.2 or 20%',
      fraction,
      0.2,
    )
    .option('--seed <n>', 'random seed', wholeNumber(0, 2 ** 32 - 1), 1)
    .option(
      '--teacher-password <password>',
      'give generated teachers this password (else they cannot log in)',
    )
    .option(
      '--now <datetime>',
      'the generation clock (ISO 8601; default: the current time): every generated date falls before it, so the same seed and --now give the same data',
      isoDateTime,
    )
    .option(
      '--empty-database',
      'the database holds no data yet: load the answers in bulk, several times faster for millions of them (refused if any table has rows)',
    )
    .action(
      async (options: {
        users: number;
        quizzes: number;
        questions: number;
        sessions: number;
        participation: number;
        seed: number;
        teacherPassword?: string;
        emptyDatabase?: boolean;
        now?: Date;
      }) => {
        const { db } = await deps();
        const started = Date.now();
        const { source, expected } = generateData({
          users: options.users,
          quizzes: options.quizzes,
          questions: options.questions,
          sessions: options.sessions,
          participation: options.participation,
          seed: options.seed,
          // Dated before now, so answers sent later (corrections) are newer than the generated ones.
          now: options.now ?? new Date(),
          teacherPasswordHash: options.teacherPassword
            ? await hashPassword(options.teacherPassword)
            : null,
        });
        await loadData(db.write, source, {
          onProgress: progress,
          emptyDatabase: options.emptyDatabase === true,
        }).finally(progress.end);
        const seconds = (Date.now() - started) / 1000;
        print(
          `Generated ${expected.users} users, ${expected.quizzes} quizzes, ${expected.questions} questions, ` +
            `${expected.sessions} sessions, ${expected.answers} answers in ${seconds.toFixed(1)} s ` +
            `(${Math.round(expected.answers / Math.max(seconds, 0.001))} answers/s).`,
        );
      },
    );

  addSimulateCommand(program, { io, print, progress, context });
  addPrivacyCommands(program, { print, database: async () => (await deps()).db });

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

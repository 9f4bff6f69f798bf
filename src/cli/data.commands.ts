import fs from 'node:fs';
import type { Command } from 'commander';
import type { Database } from '../db/database';
import { loadData } from '../data/import/bulk-loader';
import { generateData } from '../data/generate/synthetic-data';
import { hashPassword } from '../security/password';
import { CliError, fraction, isoDateTime, wholeNumber } from './cli-common';
import type { ProgressReporter } from './progress';

/** What the data commands need from the command line they are part of. */
export interface DataCommandEnv {
  print: (text: string) => void;
  /** The command line's progress bar: `print` clears it first. */
  progress: ProgressReporter;
  /** The database DATABASE_URL names. */
  database: () => Promise<Database>;
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

/** import and generate: data files and synthetic data loaded in bulk. */
export function addDataCommands(program: Command, env: DataCommandEnv): void {
  const { print, progress } = env;
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
      const db = await env.database();
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
        const db = await env.database();
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
}

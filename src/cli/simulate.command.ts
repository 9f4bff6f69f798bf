import { InvalidArgumentError, Option, type Command } from 'commander';
import { ServiceApiException, TransportException } from '@quiz-results/client';
import type { RequestContext } from '../context/request-context';
import {
  SimulationError,
  simulateClass,
  type Batching,
  type ClassSimulationReport,
} from '../data/simulate/class.simulator';
import { findCredentials } from '../db/sql/credentials.sql';
import { hashSecret } from '../security/secrets';
import { issueAccessToken } from '../services/auth/access-token.service';
import { findUserByEmail } from '../services/users/user.service';
import { CliError, wholeNumber, type CliIo } from './cli-common';
import type { ProgressReporter } from './progress';

/** What the simulate command needs from the command line it is part of. */
export interface SimulateCommandEnv {
  io: CliIo;
  print: (text: string) => void;
  /** The command line's progress bar: `print` clears it first. */
  progress: ProgressReporter;
  /** An operator's context on the database DATABASE_URL names (for --user only). */
  context: (operation: string) => Promise<RequestContext>;
}

interface SimulateOptions {
  url: string;
  apiKey: string;
  token?: string;
  user?: string;
  quiz: number;
  pupils: number;
  pupilIds?: number[];
  seconds: number;
  seed: number;
  batching: Batching;
  tickMs: number;
  clientRef?: string;
  join?: boolean;
}

function baseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidArgumentError('must be a URL such as http://localhost:3000');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError('must be an http or https URL');
  return raw;
}

function idList(raw: string): number[] {
  const parse = wholeNumber(1, 2 ** 31 - 1);
  const ids = raw.split(',').map((part) => parse(part.trim()));
  if (ids.length > 1000) throw new InvalidArgumentError('at most 1000 pupils');
  return ids;
}

/**
 * The teacher's token: the given one, or one issued as the operator for the --user teacher and
 * the given key; with --join, also the pupils' tokens, issued alike (only the operator can).
 */
async function accessTokens(
  options: SimulateOptions,
  env: SimulateCommandEnv,
): Promise<{ teacher: string; pupil?: (pupilId: string) => Promise<string> }> {
  if (options.token !== undefined && options.user !== undefined)
    throw new CliError('give --token or --user, not both');
  if (options.join && options.user === undefined)
    throw new CliError("--join issues the pupils' tokens as the operator: give --user");
  if (options.token !== undefined) return { teacher: options.token };
  if (options.user === undefined)
    throw new CliError('an access token is needed: --token or --user');
  const ctx = await env.context('simulate');
  const user = await findUserByEmail(ctx, options.user);
  if (!user) throw new CliError(`no account with email ${options.user}`);
  const { key } = await findCredentials(ctx.db.writeRows, hashSecret(options.apiKey), null);
  if (!key || key.revokedAt)
    throw new CliError('the API key is unknown or revoked in the database of DATABASE_URL');
  const issue = async (userId: number) => (await issueAccessToken(ctx, userId, key.id)).token;
  return {
    teacher: await issue(user.id),
    pupil: options.join ? (pupilId) => issue(Number(pupilId)) : undefined,
  };
}

/** A failure of the service or of the connection, as one line naming the operation. */
function failure(error: unknown): unknown {
  if (error instanceof SimulationError || error instanceof ServiceApiException) {
    return new CliError(error.message);
  }
  if (error instanceof TransportException) {
    // fetch's own error says only "fetch failed"; the socket's, deeper, says why. (Read by
    // shape: fetch's errors may come from another realm, where `instanceof Error` is false.)
    const causes: string[] = [];
    let cause = error.cause as { message?: unknown; cause?: unknown } | undefined;
    for (; typeof cause?.message === 'string'; cause = cause.cause as typeof cause) {
      causes.push(cause.message);
    }
    return new CliError(`${error.message}${causes.length ? ` (${causes.join(': ')})` : ''}`);
  }
  return error;
}

const count = (n: number, noun: string) =>
  `${n} ${noun}${n === 1 ? '' : noun.endsWith('h') ? 'es' : 's'}`;
const ms = (value: number) => `${value.toFixed(1)} ms`;

function summary(report: ClassSimulationReport, options: SimulateOptions): string[] {
  const { latencyMs: l } = report;
  return [
    `Sent ${count(report.sent, 'answer')} in ${count(report.batches, 'batch')} over ` +
      `${(report.elapsedMs / 1000).toFixed(1)} s (${count(report.corrections, 'correction')}, ` +
      `${report.wrong} known wrong): ${report.inserted} inserted, ${report.updated} updated, ` +
      `${report.unchanged} unchanged; ${count(report.retries, 'batch')} sent again.`,
    `Acknowledgement latency (${options.batching} batching): p50 ${ms(l.p50)}, p95 ${ms(l.p95)}, ` +
      `p99 ${ms(l.p99)}, max ${ms(l.max)}.`,
  ];
}

export function addSimulateCommand(program: Command, env: SimulateCommandEnv): void {
  program
    .command('simulate')
    .description(
      'play a class against a running service through its public API: a session of a quiz, pupils answering over time (some wrong, a few corrected), sent with addAnswers; the same clientRef resumes the class',
    )
    .requiredOption('--url <url>', 'base URL of the service', baseUrl)
    .requiredOption('--api-key <key>', 'an API key of the service valid from this machine')
    .option('--token <token>', "a teacher's access token (the session's owner)")
    .option(
      '--user <email>',
      "issue a token for this teacher as the operator (DATABASE_URL names the service's database)",
    )
    .requiredOption('--quiz <id>', 'the quiz played', wholeNumber(1, 2 ** 31 - 1))
    .option(
      '--pupils <n>',
      "class size: the first users of the teacher's groups, then of the quiz's past players",
      wholeNumber(1, 1000),
      30,
    )
    .option(
      '--pupil-ids <ids>',
      'the pupils, comma-separated user ids (instead of --pupils)',
      idList,
    )
    .option('--seconds <n>', 'duration of the class', wholeNumber(0, 86_400), 60)
    .option(
      '--seed <n>',
      'random seed of the class (same seed, same answers)',
      wholeNumber(0, 2 ** 32 - 1),
      1,
    )
    .addOption(
      new Option(
        '--batching <how>',
        "tick: the teacher's app sends each tick's answers in one batch; pupil: each device sends its own",
      )
        .choices(['tick', 'pupil'])
        .default('tick'),
    )
    .option('--tick-ms <n>', 'tick of the tick batching', wholeNumber(50, 60_000), 1000)
    .option(
      '--client-ref <ref>',
      'names the session; by default one made of the quiz, class size, duration and seed',
    )
    .option(
      '--join',
      'the pupils join the session with its join code, each with a token issued as the operator (needs --user), instead of being named by the teacher, who may name only pupils it knows; with --batching pupil each device sends its own answers',
    )
    .action(async (options: SimulateOptions) => {
      const tokens = await accessTokens(options, env);
      const pupils = options.pupilIds?.length ?? options.pupils;
      const { progress } = env;
      let report: ClassSimulationReport;
      try {
        report = await simulateClass({
          baseUrl: options.url,
          apiKey: options.apiKey,
          accessToken: tokens.teacher,
          pupilToken: tokens.pupil,
          quizId: options.quiz,
          pupils,
          pupilIds: options.pupilIds,
          seconds: options.seconds,
          seed: options.seed,
          batching: options.batching,
          tickMs: options.tickMs,
          clientRef: options.clientRef,
          onStart: (start) =>
            env.print(
              `Session ${start.sessionId} (${start.resumed ? 'resumed' : 'new'}, clientRef ${start.clientRef}): ` +
                `${count(pupils, 'pupil')}${start.joined > 0 ? ` (${start.joined} joined with the join code)` : ''}, ` +
                `quiz ${options.quiz} of ${start.questions} questions, ` +
                `${start.planned} answers over ${options.seconds} s.\n` +
                // The key is not printed back: the demo page takes it as given.
                `Follow it live: ${options.url.replace(/\/+$/, '')}/demo/?sessionId=${start.sessionId}&apiKey=<the API key>`,
            ),
          onProgress: ({ sent, total }) => progress('answers', sent, total),
        });
      } catch (error) {
        throw failure(error);
      } finally {
        progress.end();
      }
      for (const line of summary(report, options)) env.print(line);
    });
}

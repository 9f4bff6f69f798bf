import os from 'node:os';
import type { Command } from 'commander';
import type { AppDeps } from '../context/request-context';
import { toNumber } from '../db/sql/dialect';
import { userIdByEmail } from '../db/sql/erasure.sql';
import { normalizeEmail } from '../services/auth/login.service';
import { eraseUser, type ErasureReport } from '../services/privacy/erasure.service';
import { CliError } from './cli-common';

/** What the erasure command needs from the command line it is part of. */
export interface ErasureCommandEnv {
  print: (text: string) => void;
  /** The service's dependencies on the database DATABASE_URL names. */
  deps: () => Promise<AppDeps>;
}

/** The id `--user` names: a whole number, or the email of an account. */
export async function userIdOf(deps: Pick<AppDeps, 'db'>, raw: string): Promise<number> {
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Number(text);
  if (!text.includes('@')) throw new CliError('--user must be a user id or an email');
  const statement = userIdByEmail(normalizeEmail(text));
  const [row] = await deps.db.writeRows.rows<{ id: unknown }>(statement.sql, statement.params);
  if (!row) throw new CliError('--user: no user has this email');
  return toNumber(row.id);
}

const ACTIONS: Readonly<Record<ErasureReport['tables'][number]['action'], string>> = {
  delete: 'deleted',
  tombstone: 'emptied (tombstone)',
  'keep-for-others': 'kept for others, owned by the tombstone',
  expire: 'deleted (sets that held the person)',
  none: '',
};

function reportText(report: ErasureReport): string {
  const width = Math.max(...report.tables.map((line) => line.table.length));
  const lines = report.tables.map(
    (line) =>
      `  ${line.table.padEnd(width)}  ${String(line.rows).padStart(8)}  ${ACTIONS[line.action]}${line.note ? ` (${line.note})` : ''}`,
  );
  const head = report.dryRun
    ? `Erasing user ${report.userId} would change (nothing was changed):`
    : `Erased user ${report.userId}:`;
  return [head, ...lines].join('\n');
}

export function addErasureCommand(program: Command, env: ErasureCommandEnv): void {
  program
    .command('user:erase')
    .description(
      "erase a person (contract.md §14.4): their answers, attendance, memberships, flags, keys (and the sign-ins of others through them, counted apart), tokens and the access-log entries about them are deleted, every data set that held them expires, their account becomes a tombstone naming no one; a teacher's sessions, groups and quizzes stay for the pupils and colleagues who use them. One transaction; prints a count per table",
    )
    .requiredOption('--user <id|email>', 'the person, by id or email')
    .option('--dry-run', 'print what would be erased and change nothing')
    .option('--by <operator>', 'the operator recorded as having run it (default: the system user)')
    .option('--json', 'print the counts as JSON')
    .action(async (options: { user: string; dryRun?: boolean; by?: string; json?: boolean }) => {
      const deps = await env.deps();
      const userId = await userIdOf(deps, options.user);
      const erasedBy = (options.by ?? os.userInfo().username).slice(0, 100);
      const report = await eraseUser(deps, userId, { dryRun: options.dryRun, erasedBy });
      env.print(options.json ? JSON.stringify(report) : reportText(report));
    });
}

import type { Command } from 'commander';
import type { Database } from '../db/database';
import { readSchemaColumns } from '../db/sql/schema-columns.sql';
import { PERSONAL_DATA_REGISTRY, type TableEntry } from '../domain/privacy/personal-data.registry';
import { registryProblems } from '../domain/privacy/registry-problems';
import {
  readAccessLog,
  type AccessLogRecord,
  type ErasureRecord,
} from '../services/access-log/access-log.service';
import { CliError, wholeNumber } from './cli-common';

/** What the privacy commands need from the command line they are part of. */
export interface PrivacyCommandEnv {
  print: (text: string) => void;
  /** The database DATABASE_URL names (for --check only). */
  database: () => Promise<Database>;
}

const ERASURE_WORDS: Readonly<Record<TableEntry['erasure'], string>> = {
  delete: "the person's rows are deleted",
  tombstone: 'the row stays as a tombstone, every personal column emptied',
  'keep-for-others': 'kept for the people who use them, owned by the tombstone',
  expire: 'sets that hold the person, or were computed from one that does, expire at once',
  none: 'nothing to erase',
};

/** The registry as a record of processing: one paragraph per table. */
function registryText(registry: readonly TableEntry[]): string {
  return registry
    .map((entry) => {
      const personal = Object.entries(entry.columns)
        .filter(([, column]) => column.category !== null)
        .map(
          ([name, column]) =>
            `${name} (${column.category}${column.note ? `: ${column.note}` : ''})`,
        );
      return [
        `${entry.table}: ${entry.holds}`,
        `  whose data:   ${entry.subject ?? 'no one'}`,
        `  personal:     ${personal.length > 0 ? personal.join('; ') : 'none'}`,
        `  kept:         ${entry.retention}`,
        `  in an export: ${entry.export}`,
        `  on erasure:   ${ERASURE_WORDS[entry.erasure]}`,
      ].join('\n');
    })
    .join('\n\n');
}

const utc = (date: Date) => `${date.toISOString().slice(0, 19).replace('T', ' ')}Z`;

/** The access log about one person as a table, then the records of their erasure. */
function accessLogText(
  userId: number,
  entries: readonly AccessLogRecord[],
  erasures: readonly ErasureRecord[],
): string {
  const lines: string[] = [];
  if (entries.length === 0) lines.push(`No access-log entry about user ${userId}.`);
  else {
    const rows = entries.map((entry) => [
      utc(entry.accessedAt),
      entry.operation,
      [
        entry.requesterUserId === null ? null : `user ${entry.requesterUserId}`,
        entry.requesterApiKeyId === null ? null : `key ${entry.requesterApiKeyId}`,
      ]
        .filter(Boolean)
        .join(', ') || 'operator',
      entry.requestId,
    ]);
    const header = ['accessed at', 'operation', 'requester', 'request id'];
    const widths = header.map((title, index) =>
      Math.max(title.length, ...rows.map((row) => row[index]!.length)),
    );
    const line = (cells: string[]) =>
      cells
        .map((cell, index) => cell.padEnd(widths[index]!))
        .join('  ')
        .trimEnd();
    lines.push(`Access log of user ${userId}: ${entries.length} entries`, line(header));
    lines.push(...rows.map(line));
  }
  for (const erasure of erasures) {
    lines.push(`User ${userId} was erased at ${utc(erasure.erasedAt)} by ${erasure.erasedBy}.`);
  }
  return lines.join('\n');
}

export function addPrivacyCommands(program: Command, env: PrivacyCommandEnv): void {
  program
    .command('access-log')
    .description(
      'print the access log about one person (contract.md §14.6): every read of their data (time, operation, requester, request id), oldest first, and the record of their erasure if they were erased',
    )
    .requiredOption('--user <id>', 'the user id', wholeNumber(1, Number.MAX_SAFE_INTEGER))
    .option('--json', 'print it as one JSON document')
    .action(async (options: { user: number; json?: boolean }) => {
      const db = await env.database();
      const { entries, erasures } = await readAccessLog({ db }, options.user);
      env.print(
        options.json
          ? JSON.stringify({ userId: options.user, entries, erasures }, null, 2)
          : accessLogText(options.user, entries, erasures),
      );
    });

  program
    .command('privacy:registry')
    .description(
      "print the registry of personal data (contract.md §14.2): every table, the columns that hold personal data or name a person, whose data it is, how long it is kept, and what a person's export and erasure do with it",
    )
    .option('--json', 'print it as JSON')
    .option('--check', 'also check it against the tables of the database (exit 1 on a difference)')
    .action(async (options: { json?: boolean; check?: boolean }) => {
      env.print(
        options.json
          ? JSON.stringify(PERSONAL_DATA_REGISTRY, null, 2)
          : registryText(PERSONAL_DATA_REGISTRY),
      );
      if (!options.check) return;
      const problems = registryProblems(await readSchemaColumns(await env.database()));
      if (problems.length > 0) {
        throw new CliError(
          `the registry and the database differ:\n${problems.map((p) => `- ${p}`).join('\n')}`,
        );
      }
      if (!options.json) env.print('\nThe registry declares every column of the database.');
    });
}

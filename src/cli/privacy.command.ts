import type { Command } from 'commander';
import type { Database } from '../db/database';
import { readSchemaColumns } from '../db/sql/schema-columns.sql';
import { PERSONAL_DATA_REGISTRY, type TableEntry } from '../domain/privacy/personal-data.registry';
import { registryProblems } from '../domain/privacy/registry-problems';
import { CliError } from './cli-common';

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

export function addPrivacyCommands(program: Command, env: PrivacyCommandEnv): void {
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

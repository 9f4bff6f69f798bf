import { PERSONAL_DATA_REGISTRY } from './personal-data.registry';
import type { TableEntry } from './personal-data.types';

/** A column as the database describes it, with the table its foreign key references, if any. */
export interface SchemaColumn {
  table: string;
  column: string;
  references?: string;
}

/**
 * Column names that suggest personal data: such a column declared as holding none must say why
 * (its `note`), so a new `teacher_email` or `client_ip` cannot slip in as "nothing".
 */
const LOOKS_PERSONAL =
  /(^|_)(user|owner|author|member|email|mail|name|title|label|ip|address|value|answer|text|picture|photo|phone|birth|password|token|secret|key|ref|holder|parameters|url|tag|propositions)(_|s?$)/;

/**
 * How the registry and the database disagree (none: they agree): a table or a column the
 * registry lacks or names in vain, a column referencing users not declared as naming a person,
 * a personal-looking column declared as holding nothing without a reason.
 */
export function registryProblems(
  schema: readonly SchemaColumn[],
  registry: readonly TableEntry[] = PERSONAL_DATA_REGISTRY,
): string[] {
  const problems: string[] = [];
  const byTable = new Map(registry.map((entry) => [entry.table, entry]));
  const tables = new Set(schema.map(({ table }) => table));
  const columns = new Set(schema.map(({ table, column }) => `${table}.${column}`));
  for (const table of tables) {
    if (!byTable.has(table)) problems.push(`table ${table} is not in the registry`);
  }
  for (const { table, column, references } of schema) {
    const declared = byTable.get(table)?.columns[column];
    if (!byTable.has(table)) continue;
    if (!declared) {
      problems.push(`column ${table}.${column} is not in the registry`);
    } else if (references === 'users' && declared.category !== 'person') {
      problems.push(`column ${table}.${column} references users but is not declared as a person`);
    } else if (declared.category === null && !declared.note && LOOKS_PERSONAL.test(column)) {
      problems.push(`column ${table}.${column} looks personal: declare it, or say why it is not`);
    }
  }
  for (const entry of registry) {
    if (!tables.has(entry.table)) {
      if (!entry.mayBeAbsent) problems.push(`table ${entry.table} is in the registry only`);
    } else {
      for (const column of Object.keys(entry.columns)) {
        if (!columns.has(`${entry.table}.${column}`)) {
          problems.push(`column ${entry.table}.${column} is in the registry only`);
        }
      }
    }
    if (entry.erasure === 'delete' && !entry.erasedRows) {
      problems.push(`table ${entry.table}: an erasure that deletes rows says which (erasedRows)`);
    } else if (entry.erasedRows && !(entry.erasedRows.column in entry.columns)) {
      problems.push(`table ${entry.table}: erasedRows names a column it lacks`);
    }
    const personal = Object.values(entry.columns).some((c) => c.category !== null);
    if (personal !== (entry.subject !== null)) {
      problems.push(`table ${entry.table}: a subject is named exactly when a column is personal`);
    }
  }
  return problems;
}

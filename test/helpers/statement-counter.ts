import type { Logger } from 'typeorm';

/** A TypeORM logger that records the SQL statements run while `counting` is on (N+1 checks). */
export class StatementCounter implements Logger {
  counting = false;
  statements: string[] = [];

  /** The statements `work` runs, with its result. */
  async count<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
    this.statements = [];
    this.counting = true;
    try {
      const result = await work();
      return { result, statements: [...this.statements] };
    } finally {
      this.counting = false;
    }
  }

  logQuery(query: string): void {
    if (this.counting) this.statements.push(query.replace(/\s+/g, ' ').trim());
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

/**
 * The statements of `statements` that requests ran: without those an instance runs in the
 * background or for a slice of many requests, which fall into a counting window by chance: the
 * rate-limit leases (tagged `rate-limit lease`), the read of the credentials' change marker every
 * 250 ms (tagged `credential changes`) and the webhook delivery loop's poll.
 */
export function requestStatements(statements: readonly string[]): string[] {
  return statements.filter(
    (sql) =>
      !sql.startsWith('/* rate-limit lease */') &&
      !sql.startsWith('/* credential changes */') &&
      !sql.startsWith('UPDATE webhook_deliveries SET lease_id'),
  );
}

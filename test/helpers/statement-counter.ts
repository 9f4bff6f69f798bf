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

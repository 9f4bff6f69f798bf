/**
 * `npm run schema:check`: lists the breaking changes of schema/ against schema/published/ that
 * schema/CHANGELOG.md does not record, and exits 1 when there is any. The same check runs in
 * `npm test` (test/integration/schema-versioning.test.ts).
 */
import { checkVersioning, formatUnrecorded, repositoryInput } from './schema-diff';

async function main(): Promise<void> {
  const report = await checkVersioning(repositoryInput());
  if (report.unrecorded.length === 0) {
    process.stdout.write(
      `schema/: ${report.breaking.length} breaking change(s) since the published baseline, all recorded in schema/CHANGELOG.md\n`,
    );
    return;
  }
  process.stdout.write(
    `schema/: breaking change(s) not recorded under "## Unreleased" in schema/CHANGELOG.md ` +
      `(add each line with a plain description, or undo the change):\n${formatUnrecorded(report)}\n`,
  );
  process.exitCode = 1;
}

void main();

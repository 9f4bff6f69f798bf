import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { personalDataText } from '../api/operations/shapes/personal-data.serializer';
import type { RequestContext } from '../context/request-context';
import { exportPersonalDataOf } from '../services/privacy/personal-data-export.service';
import type { CliIo } from './cli-common';

/** What the personal-data commands need from the command line they are part of. */
export interface PersonalDataCommandEnv {
  io: CliIo;
  /** An operator's context on the database DATABASE_URL names. */
  context: (operation: string) => Promise<RequestContext>;
}

/** Writes the chunks as fast as the stream takes them: one page of the export in memory. */
async function writeAll(out: NodeJS.WritableStream, chunks: AsyncIterable<string>): Promise<void> {
  for await (const chunk of chunks) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
}

/** user:export: a person's export (contract.md §14.3), the document exportPersonalData streams. */
export function addPersonalDataCommands(program: Command, env: PersonalDataCommandEnv): void {
  program
    .command('user:export')
    .description(
      'export everything the service holds about a person as one JSON document (contract.md §14.3), the document of exportPersonalData; recorded in the access log as user:export',
    )
    .requiredOption('--user <id|email>', "the person's user id or email")
    .option('--out <file>', 'write the document to this file (standard output by default)')
    .action(async (options: { user: string; out?: string }) => {
      const ctx = await env.context('user:export');
      // An unknown person fails here, before a file is made.
      const data = await exportPersonalDataOf(ctx, options.user);
      if (!options.out) {
        await writeAll(env.io.stdout, personalDataText(data));
        return;
      }
      const file = path.resolve(env.io.cwd ?? process.cwd(), options.out);
      // Readable by its owner only: it holds a person's data.
      const out = fs.createWriteStream(file, { mode: 0o600 });
      try {
        await writeAll(out, personalDataText(data));
        out.end();
        await once(out, 'finish');
      } catch (error) {
        // No truncated document is left behind to be taken for a complete one.
        out.destroy();
        await fs.promises.rm(file, { force: true });
        throw error;
      }
    });
}

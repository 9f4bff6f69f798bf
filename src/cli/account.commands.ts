import type { Command } from 'commander';
import type { RequestContext } from '../context/request-context';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys/api-key.service';
import { createUser, findUserByEmail } from '../services/users/user.service';
import { CliError, wholeNumber, type CliIo } from './cli-common';

/** What the account and key commands need from the command line they are part of. */
export interface AccountCommandEnv {
  io: CliIo;
  print: (text: string) => void;
  /** An operator's context on the database DATABASE_URL names. */
  context: (operation: string) => Promise<RequestContext>;
}

async function readAll(stream: NodeJS.ReadableStream | undefined): Promise<string> {
  if (!stream) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** user:create, key:create, key:list and key:revoke. */
export function addAccountCommands(program: Command, env: AccountCommandEnv): void {
  const { io, print, context } = env;
  program
    .command('user:create')
    .description('create an account (the password is stored as an argon2id hash)')
    .requiredOption('--email <email>', 'login email')
    .requiredOption('--first-name <name>', 'first name')
    .requiredOption('--last-name <name>', 'last name')
    .option('--password <password>', 'password (at least 10 characters)')
    .option(
      '--password-stdin',
      'read the password from standard input (keeps it out of shell history)',
    )
    .option('--picture-url <url>', 'picture URL')
    .option('--public-profile', 'make the profile public', false)
    .option('--can-create-private-quizzes', 'allow private quizzes', false)
    .action(async (options: Record<string, string | boolean | undefined>) => {
      const password = options.passwordStdin
        ? await readAll(io.stdin)
        : (options.password as string | undefined);
      if (!password) throw new CliError('a password is needed: --password or --password-stdin');
      const user = await createUser(await context('user:create'), {
        email: options.email as string,
        password,
        firstName: options.firstName as string,
        lastName: options.lastName as string,
        pictureUrl: (options.pictureUrl as string | undefined) ?? null,
        publicProfile: options.publicProfile === true,
        canCreatePrivateQuizzes: options.canCreatePrivateQuizzes === true,
      });
      print(`Created user ${user.id} <${user.email}>`);
    });

  program
    .command('key:create')
    .description('create an API key bound to one host; the key is printed once')
    .requiredOption(
      '--host <host>',
      'domain name or IP address the key is bound to (localhost for local use)',
    )
    .option('--owner <email>', 'email of the owning account')
    .option('--label <label>', 'a name to tell keys apart', '')
    .action(async (options: { host: string; owner?: string; label: string }) => {
      const ctx = await context('key:create');
      let ownerId: number | null = null;
      if (options.owner) {
        const owner = await findUserByEmail(ctx, options.owner);
        if (!owner) throw new CliError(`no account with email ${options.owner}`);
        ownerId = owner.id;
      }
      const { apiKey, secret } = await createApiKey(ctx, {
        host: options.host,
        ownerId,
        label: options.label,
      });
      print(`Created API key ${apiKey.id} for host ${apiKey.host}. It is shown only now:`);
      print(secret);
    });

  program
    .command('key:list')
    .description('list API keys (never the keys themselves)')
    .option('--owner <email>', 'only the keys of this account')
    .option('--json', 'print JSON')
    .action(async (options: { owner?: string; json?: boolean }) => {
      const ctx = await context('key:list');
      let ownerId: number | undefined;
      if (options.owner) {
        const owner = await findUserByEmail(ctx, options.owner);
        if (!owner) throw new CliError(`no account with email ${options.owner}`);
        ownerId = owner.id;
      }
      const keys = await listApiKeys(ctx, ownerId);
      const rows = keys.map((key) => ({
        id: key.id,
        prefix: `${key.keyPrefix}…`,
        host: key.host,
        label: key.label,
        owner: key.ownerId,
        status: key.revokedAt ? 'revoked' : 'active',
        created: key.createdAt.toISOString(),
        lastUsed: key.lastUsedAt?.toISOString() ?? null,
      }));
      if (options.json) print(JSON.stringify(rows, null, 2));
      else if (rows.length === 0) print('No API key.');
      else {
        print(
          ['id', 'prefix', 'host', 'label', 'owner', 'status', 'created', 'last used'].join('\t'),
        );
        for (const row of rows)
          print(
            Object.values(row)
              .map((v) => v ?? '-')
              .join('\t'),
          );
      }
    });

  program
    .command('key:revoke')
    .description('revoke an API key: later requests with it are refused')
    .argument('<id>', 'key id (see key:list)', wholeNumber(1, 2 ** 31 - 1))
    .action(async (id: number) => {
      // Revoking twice succeeds (exit 0: the key is revoked, as asked) and says nothing changed.
      const asked = new Date();
      const key = await revokeApiKey(await context('key:revoke'), id);
      if (key.revokedAt && key.revokedAt < asked) {
        print(
          `API key ${key.id} (${key.host}) was already revoked on ${key.revokedAt.toISOString()}.`,
        );
      } else print(`Revoked API key ${key.id} (${key.host}).`);
    });
}

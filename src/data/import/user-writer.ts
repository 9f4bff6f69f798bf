import { hashPassword, type PasswordCost } from '../../security/password';
import type { ValidUser } from './import-records';
import { ImportError } from './import-validator';
import type { LoadStatements } from './row-writer';

/** argon2id takes 64 MiB and tens of milliseconds per hash: a few at once, not hundreds. */
const HASH_CONCURRENCY = 4;

const USER_COLUMNS = [
  'email',
  'password_hash',
  'first_name',
  'last_name',
  'picture_url',
  'public_profile',
  'can_create_private_quizzes',
  'created_at',
] as const;

async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The errors of a batch of users (`indexes`: their positions in the file) whose email is already
 * in the database: the import adds accounts, it never merges them.
 */
export async function checkEmailsFree(
  sql: LoadStatements,
  users: readonly ValidUser[],
  indexes: readonly number[],
): Promise<ImportError[]> {
  const emails = users.map((user) => user.email.toLowerCase());
  const taken = await sql.selectIn('users', ['email'], 'email', emails);
  return taken
    .map((row) => indexes[Math.max(0, emails.indexOf(String(row.email).toLowerCase()))] as number)
    .sort((a, b) => a - b)
    .map(
      (index) =>
        new ImportError(`users[${index}].email`, 'an account with this email already exists'),
    );
}

/**
 * Inserts a batch of users whose emails were checked free (checkEmailsFree) with one statement
 * and returns their ids in order. Plain passwords are hashed here, a few at a time.
 */
export async function insertUsers(
  sql: LoadStatements,
  users: readonly ValidUser[],
  now: Date,
  passwordCost?: Readonly<PasswordCost>,
): Promise<number[]> {
  const { dialect } = sql;
  const emails = users.map((user) => user.email);
  const byEmail = () => sql.selectIn('users', ['id', 'email'], 'email', emails);
  const hashes = await mapWithConcurrency(users, HASH_CONCURRENCY, (user) =>
    user.password === null
      ? Promise.resolve(user.passwordHash)
      : hashPassword(user.password, passwordCost),
  );
  const parameters = users.flatMap((user, position) => [
    user.email,
    hashes[position] ?? null,
    user.firstName,
    user.lastName,
    user.pictureUrl,
    dialect.bool(user.publicProfile),
    dialect.bool(user.canCreatePrivateQuizzes),
    dialect.date(now),
  ]);
  await sql.run(dialect.insertRows('users', USER_COLUMNS, users.length), parameters);
  // Read the ids back by email (unique): a multi-row INSERT does not promise consecutive ids.
  const idsByEmail = new Map<string, number>();
  for (const row of await byEmail()) idsByEmail.set(String(row.email), Number(row.id));
  return users.map((user) => {
    const id = idsByEmail.get(user.email);
    if (id === undefined) throw new Error(`user ${user.email} was not found after its INSERT`);
    return id;
  });
}

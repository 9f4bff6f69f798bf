import type { Database } from './database';
import { User } from './entities';

/**
 * The handle a read goes through (database.ts): `write` when it must see this instance's own
 * writes, `read` when a moment's lag is harmless.
 */
export type ReadHandle = 'read' | 'write';

/** The columns a new account is written with; the others take their defaults. */
export type NewUser = Pick<
  User,
  | 'email'
  | 'passwordHash'
  | 'firstName'
  | 'lastName'
  | 'pictureUrl'
  | 'publicProfile'
  | 'canCreatePrivateQuizzes'
>;

/** The user of an id, or null. */
export function userById(db: Database, id: number, via: ReadHandle): Promise<User | null> {
  return db[via].getRepository(User).findOneBy({ id });
}

/** The user of a normalised email, or null. */
export function userByEmail(db: Database, email: string, via: ReadHandle): Promise<User | null> {
  return db[via].getRepository(User).findOneBy({ email });
}

/** Whether a user has this id (through the write handle). */
export function userExists(db: Database, id: number): Promise<boolean> {
  return db.write.getRepository(User).existsBy({ id });
}

/** Whether an account already has this normalised email (through the write handle). */
export function emailTaken(db: Database, email: string): Promise<boolean> {
  return db.write.getRepository(User).existsBy({ email });
}

/** Writes a new account and returns it as stored, defaults and id included. */
export function insertUser(db: Database, fields: NewUser): Promise<User> {
  const users = db.write.getRepository(User);
  return users.save(users.create(fields));
}

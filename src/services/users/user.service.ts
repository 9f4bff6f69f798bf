import type { RequestContext } from '../../context/request-context';
import type { User } from '../../db/entities';
import { emailTaken, insertUser, userByEmail } from '../../db/users.store';
import { Errors } from '../../errors';
import { hashPassword } from '../../security/password';

export interface CreateUserInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  pictureUrl?: string | null;
  publicProfile?: boolean;
  canCreatePrivateQuizzes?: boolean;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}\.[^\s@]{1,63}$/;
export const MIN_PASSWORD_LENGTH = 10;

function requireText(ctx: RequestContext, name: string, value: string, max: number): string {
  const trimmed = value.trim();
  if (trimmed === '') throw Errors.missingParameter(ctx.operation, name);
  if (trimmed.length > max) {
    throw Errors.badParameter(ctx.operation, name, value, `must be at most ${max} characters`);
  }
  return trimmed;
}

/** Creates an account; the password is stored only as an argon2id hash. */
export async function createUser(ctx: RequestContext, input: CreateUserInput): Promise<User> {
  if (ctx.requester.kind !== 'operator') {
    throw Errors.forbidden(ctx.operation, 'only an operator can create accounts');
  }
  const email = requireText(ctx, 'email', input.email, 254).toLowerCase();
  if (!EMAIL.test(email))
    throw Errors.badParameter(ctx.operation, 'email', input.email, 'is not an email address');
  if (input.password.length < MIN_PASSWORD_LENGTH) {
    throw Errors.badParameter(
      ctx.operation,
      'password',
      '[hidden]',
      `must be at least ${MIN_PASSWORD_LENGTH} characters`,
    );
  }
  const firstName = requireText(ctx, 'firstName', input.firstName, 100);
  const lastName = requireText(ctx, 'lastName', input.lastName, 100);
  if (input.pictureUrl && !/^https?:\/\/\S+$/i.test(input.pictureUrl)) {
    throw Errors.badParameter(
      ctx.operation,
      'pictureURL',
      input.pictureUrl,
      'must be an http(s) URL',
    );
  }
  if (await emailTaken(ctx.db, email)) {
    throw Errors.badParameter(
      ctx.operation,
      'email',
      email,
      'an account with this email already exists',
    );
  }
  return insertUser(ctx.db, {
    email,
    passwordHash: await hashPassword(input.password),
    firstName,
    lastName,
    pictureUrl: input.pictureUrl ?? null,
    publicProfile: input.publicProfile ?? false,
    canCreatePrivateQuizzes: input.canCreatePrivateQuizzes ?? false,
  });
}

export async function findUserByEmail(ctx: RequestContext, email: string): Promise<User | null> {
  return userByEmail(ctx.db, email.trim().toLowerCase(), 'read');
}

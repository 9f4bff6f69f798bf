import argon2 from 'argon2';

/** The argon2id parameters of a hash; verifying reads them from the hash itself. */
export interface PasswordCost {
  /** KiB of memory. */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** The service's: 64 MiB, 3 passes, 4 lanes (the library's defaults, above OWASP's floor). */
export const PASSWORD_COST: Readonly<PasswordCost> = Object.freeze({
  memoryCost: 65536,
  timeCost: 3,
  parallelism: 4,
});

/**
 * An argon2id hash, at PASSWORD_COST, of 32 random bytes that were not kept. A login for an
 * unknown email is checked against it, so it costs one verification at the accounts' cost, as a
 * wrong password does, and makes no hash of its own (password.test.ts checks its parameters).
 */
export const UNKNOWN_ACCOUNT_HASH =
  '$argon2id$v=19$m=65536,p=4,t=3$cNfLkLc+S8zV1Zk/LRW33A$hRjEGld4ns80PpmLXrHBBMdgEuD28bHvJ0bTPmstXEQ';

export function hashPassword(
  password: string,
  cost: Readonly<PasswordCost> = PASSWORD_COST,
): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, ...cost });
}

/** False for a wrong password and for a malformed or missing hash; never throws on input. */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (!hash) return false;
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

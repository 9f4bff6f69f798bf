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

import argon2 from 'argon2';
import {
  PASSWORD_COST,
  UNKNOWN_ACCOUNT_HASH,
  hashPassword,
  verifyPassword,
} from '../../src/security/password';

/** The parameters part of an argon2 PHC string: `m=…,p=…,t=…`. */
const costOf = (hash: string) => /^\$argon2id\$v=\d+\$([^$]+)\$/.exec(hash)?.[1];

describe('password hashes', () => {
  it('checks an unknown account against a hash made at the accounts’ cost', async () => {
    const account = await hashPassword('correct horse battery staple');
    expect(costOf(account)).toBe(
      `m=${PASSWORD_COST.memoryCost},p=${PASSWORD_COST.parallelism},t=${PASSWORD_COST.timeCost}`,
    );
    expect(costOf(UNKNOWN_ACCOUNT_HASH)).toBe(costOf(account));
    // A well-formed hash that argon2 verifies (false), rather than one it refuses at once.
    await expect(argon2.verify(UNKNOWN_ACCOUNT_HASH, 'correct horse battery staple')).resolves.toBe(
      false,
    );
  });

  it('answers false, without throwing, for a malformed or missing hash', async () => {
    await expect(verifyPassword('not a hash', 'x')).resolves.toBe(false);
    await expect(verifyPassword(null, 'x')).resolves.toBe(false);
  });
});

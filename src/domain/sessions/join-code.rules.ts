/**
 * The code pupils join a session with (contract.md §9): 8 characters of an alphabet without the
 * characters read one for another (0 and O, 1, I and L), so a code copied from a classroom screen
 * or read aloud is typed right. 31 characters to the power of 8 is about 8.5 × 10^11 codes.
 */
export const JOIN_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const JOIN_CODE_LENGTH = 8;

const WELL_FORMED = new RegExp(`^[${JOIN_CODE_ALPHABET}]{${JOIN_CODE_LENGTH}}$`);

/**
 * A typed code as it is stored: upper case, without the spaces and hyphens a screen may show
 * between its halves. What is not a well-formed code stays as typed (and matches no session).
 */
export function normalizeJoinCode(typed: string): string {
  const compact = typed.replace(/[\s-]+/g, '').toUpperCase();
  return WELL_FORMED.test(compact) ? compact : typed;
}

export function isWellFormedJoinCode(code: string): boolean {
  return WELL_FORMED.test(code);
}

/** A code from `JOIN_CODE_LENGTH` draws below the alphabet's size (a uniform random source). */
export function joinCodeOf(draw: (below: number) => number): string {
  let code = '';
  for (let index = 0; index < JOIN_CODE_LENGTH; index += 1) {
    code += JOIN_CODE_ALPHABET[draw(JOIN_CODE_ALPHABET.length)];
  }
  return code;
}

/** Whether a stored code may still be used at `now`. */
export function joinCodeValid(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() > now.getTime();
}

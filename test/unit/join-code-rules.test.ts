import {
  JOIN_CODE_ALPHABET,
  isWellFormedJoinCode,
  joinCodeOf,
  joinCodeValid,
  normalizeJoinCode,
} from '../../src/domain/sessions/join-code.rules';
import { newJoinCode } from '../../src/services/sessions/session-join.service';

/** The join codes of contract.md §9: 8 characters of an unambiguous alphabet. */
describe('join codes', () => {
  it('use no character read for another: no 0, O, 1, I or L, and no lower case', () => {
    for (const ambiguous of ['0', 'O', '1', 'I', 'L'])
      expect(JOIN_CODE_ALPHABET).not.toContain(ambiguous);
    expect(JOIN_CODE_ALPHABET).toMatch(/^[2-9A-Z]+$/);
    expect(new Set(JOIN_CODE_ALPHABET).size).toBe(JOIN_CODE_ALPHABET.length);
  });

  it('are 8 draws over the alphabet, each character reachable', () => {
    expect(joinCodeOf(() => 0)).toBe('22222222');
    expect(joinCodeOf((below) => below - 1)).toBe('ZZZZZZZZ');
    const seen = new Set<string>();
    for (let i = 0; i < 200; i += 1) {
      const code = newJoinCode();
      expect(isWellFormedJoinCode(code)).toBe(true);
      for (const char of code) seen.add(char);
    }
    // 1,600 random characters cover an alphabet of 31.
    expect(seen.size).toBe(JOIN_CODE_ALPHABET.length);
  });

  it('read a code as typed: case, spaces and hyphens ignored; anything else left as it is', () => {
    expect(normalizeJoinCode(' k7qx-3mpa ')).toBe('K7QX3MPA');
    expect(normalizeJoinCode('K7QX 3MPA')).toBe('K7QX3MPA');
    expect(normalizeJoinCode('K7QX3MP0')).toBe('K7QX3MP0');
    expect(isWellFormedJoinCode('K7QX3MP0')).toBe(false);
    expect(normalizeJoinCode('not a code')).toBe('not a code');
  });

  it('stop being valid at their expiry', () => {
    const now = new Date('2026-11-27T10:00:00Z');
    expect(joinCodeValid(new Date('2026-11-27T10:00:01Z'), now)).toBe(true);
    expect(joinCodeValid(now, now)).toBe(false);
    expect(joinCodeValid(null, now)).toBe(false);
  });
});

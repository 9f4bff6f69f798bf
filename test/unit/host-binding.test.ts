import {
  hostMatchesKey,
  normalizeIp,
  redirectUrlMatchesKey,
  requestMatchesKey,
} from '../../src/services/auth/host-binding';
import { normalizeKeyHost } from '../../src/services/api-keys/host';

describe('API key host binding (contract.md §3)', () => {
  it.each([
    ['school.example', 'school.example', true],
    ['school.example', 'app.school.example', true],
    ['school.example', 'a.b.school.example', true],
    ['school.example', 'evilschool.example', false],
    ['school.example', 'school.example.evil.test', false],
    ['school.example', 'example', false],
    ['school.example', '203.0.113.7', false],
    ['localhost', 'localhost', true],
    ['localhost', 'app.localhost', true],
    ['localhost', '127.0.0.1', true],
    ['localhost', '127.8.9.10', true],
    ['localhost', '::1', true],
    ['localhost', '::ffff:127.0.0.1', true],
    ['localhost', 'localhost.evil.test', false],
    ['localhost', '10.0.0.1', false],
    ['203.0.113.7', '203.0.113.7', true],
    ['203.0.113.7', '::ffff:203.0.113.7', true],
    ['203.0.113.7', '203.0.113.8', false],
    ['203.0.113.7', 'sub.203.0.113.7', false],
    ['2001:db8::1', '2001:db8::1', true],
    ['2001:db8::1', '[2001:db8::1]', true],
  ])('key bound to %s, request host %s → %s', (keyHost, host, expected) => {
    expect(hostMatchesKey(keyHost, host)).toBe(expected);
  });

  it('takes the Origin first, then the Referer, then the client IP', () => {
    expect(
      requestMatchesKey('school.example', {
        origin: 'https://app.school.example',
        clientIp: '198.51.100.1',
      }),
    ).toBe(true);
    expect(
      requestMatchesKey('school.example', {
        origin: 'https://evil.test',
        referer: 'https://school.example/',
      }),
    ).toBe(false);
    expect(
      requestMatchesKey('school.example', { referer: 'https://school.example/page?x=1' }),
    ).toBe(true);
    expect(
      requestMatchesKey('school.example', { referer: 'https://evil.test/school.example' }),
    ).toBe(false);
    // No browser headers: only keys bound to an IP (or localhost) can match, by the client IP.
    expect(requestMatchesKey('school.example', { clientIp: '198.51.100.1' })).toBe(false);
    expect(requestMatchesKey('198.51.100.1', { clientIp: '198.51.100.1' })).toBe(true);
    expect(requestMatchesKey('198.51.100.1', { clientIp: '198.51.100.2' })).toBe(false);
    expect(requestMatchesKey('localhost', { clientIp: '::ffff:127.0.0.1' })).toBe(true);
    expect(requestMatchesKey('localhost', { clientIp: '192.0.2.1' })).toBe(false);
    // A sandboxed page sends Origin "null": it proves nothing, the rest decides.
    expect(requestMatchesKey('localhost', { origin: 'null', clientIp: '127.0.0.1' })).toBe(true);
    expect(requestMatchesKey('localhost', { origin: 'not a url', clientIp: '127.0.0.1' })).toBe(
      false,
    );
    expect(requestMatchesKey('localhost', {})).toBe(false);
  });

  it('normalises hosts given to keys', () => {
    expect(normalizeKeyHost('School.Example.')).toBe('school.example');
    expect(normalizeKeyHost('[2001:DB8::1]')).toBe('2001:db8::1');
    expect(normalizeKeyHost('203.0.113.7')).toBe('203.0.113.7');
    for (const bad of [
      '',
      'http://school.example',
      'school example',
      '-bad.example',
      '999.1.1.1',
      'a'.repeat(64) + '.example',
      'school.example/path',
    ]) {
      expect(normalizeKeyHost(bad)).toBeUndefined();
    }
    expect(normalizeIp('::ffff:10.1.2.3')).toBe('10.1.2.3');
  });

  it('accepts redirect URLs on the key host and keeps them whole', () => {
    expect(redirectUrlMatchesKey('school.example', 'https://school.example/cb?x=1#top')?.href).toBe(
      'https://school.example/cb?x=1#top',
    );
    expect(redirectUrlMatchesKey('school.example', 'http://sub.school.example:8080/')?.href).toBe(
      'http://sub.school.example:8080/',
    );
    expect(redirectUrlMatchesKey('localhost', 'http://127.0.0.1:5173/app')?.href).toBe(
      'http://127.0.0.1:5173/app',
    );
    expect(redirectUrlMatchesKey('localhost', 'http://localhost@evil.test/')).toBeUndefined();
    expect(redirectUrlMatchesKey('localhost', 'http://evil.test\\@localhost/')).toBeUndefined();
  });
});

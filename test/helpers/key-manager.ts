import type { DataSource } from 'typeorm';
import { ApiKey } from '../../src/db/entities';
import { cookieHeader, cookiesSet, inputValue, postForm, setCookieLine, visit } from './browser';

export const FLASH_COOKIE = 'quiz_keys_flash';

export interface ProbeResult {
  status: number;
  type?: string;
  reason?: string;
}

/**
 * Whether the REST API accepts a key: getQuiz on a quiz that does not exist answers 404
 * BadParameterException once the key passed, 401 when the key is refused.
 */
export async function probeKey(appUrl: string, apiKey: string): Promise<ProbeResult> {
  const res = await fetch(`${appUrl}/getQuiz?quizId=999999&apiKey=${encodeURIComponent(apiKey)}`);
  const body = (await res.json()) as { type?: string; reason?: string };
  return { status: res.status, type: body.type, reason: body.reason };
}

/** Logs in through the key manager with fetch; returns the session cookie value. */
export async function logInToKeyManager(
  appUrl: string,
  email: string,
  password: string,
): Promise<string> {
  const form = await visit(`${appUrl}/keys`);
  const res = await postForm(
    `${appUrl}/keys/login`,
    { csrf: inputValue(form.html, 'csrf') ?? '', email, password },
    { cookie: cookieHeader(form.cookies) },
  );
  expect(res.status).toBe(303);
  return cookiesSet(res)['quiz_session'];
}

/** The new key's secret a key manager page shows, if any. */
export function shownSecret(html: string): string | undefined {
  return /<code class="secret" id="new-key">([^<]*)<\/code>/.exec(html)?.[1];
}

/**
 * Creates, reloads and deletes a key with fetch, as a browser without JavaScript would, and
 * checks POST-redirect-GET at each step: a POST answers 303 and changes the database once; the
 * GET it leads to shows the secret once, from an encrypted cookie bound to the session.
 */
export async function checkPostRedirectGet(
  appUrl: string,
  dataSource: DataSource,
  user: { id: number; email: string; password: string },
): Promise<void> {
  const keys = dataSource.getRepository(ApiKey);
  const session = await logInToKeyManager(appUrl, user.email, user.password);
  const cookie = `quiz_session=${session}`;
  const withFlash = (flash: string) => ({
    headers: { cookie: `${cookie}; ${FLASH_COOKIE}=${flash}` },
  });
  const list = await visit(`${appUrl}/keys`, { headers: { cookie } });
  const csrf = inputValue(list.html, 'csrf') ?? '';
  const before = await keys.countBy({ ownerId: user.id });

  const created = await postForm(
    `${appUrl}/keys/create`,
    { csrf, host: 'localhost', label: 'PRG key' },
    { cookie },
  );
  expect(created.status).toBe(303);
  expect(created.headers.get('location')).toBe('/keys');
  expect(await created.text()).toBe('');
  expect(await keys.countBy({ ownerId: user.id })).toBe(before + 1);
  const flashLine = setCookieLine(created, FLASH_COOKIE) ?? '';
  expect(flashLine).toMatch(/; Path=\/keys(;|$)/);
  expect(flashLine).toMatch(/; HttpOnly/i);
  expect(flashLine).toMatch(/; SameSite=Strict/i);
  expect(flashLine).toMatch(/; Max-Age=300(;|$)/i);
  const flash = cookiesSet(created)[FLASH_COOKIE];

  const shown = await visit(`${appUrl}/keys`, withFlash(flash));
  expect(shown.res.status).toBe(200);
  const secret = shownSecret(shown.html) ?? '';
  expect(secret).toMatch(/^qk_[A-Za-z0-9_-]{43}$/);
  expect((await probeKey(appUrl, secret)).status).toBe(404);
  // The secret travelled encrypted, never readable in the cookie (nor in the 303's Location).
  expect(Buffer.from(flash, 'base64url').toString('latin1')).not.toContain(secret);
  expect(flash).not.toContain(secret.slice(3));
  expect(shown.res.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(shown.html).toContain('<script src="/keys/copy-button.js" defer></script>');
  const script = await fetch(`${appUrl}/keys/copy-button.js`);
  expect(script.status).toBe(200);
  expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(await script.text()).toContain('navigator.clipboard.writeText');

  // The flash now holds only "shown": a reload neither creates a key nor shows the secret.
  const marker = cookiesSet(shown.res)[FLASH_COOKIE];
  expect(marker).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  const reload = await visit(`${appUrl}/keys`, withFlash(marker));
  expect(reload.res.status).toBe(200);
  expect(reload.html).not.toContain(secret);
  expect(shownSecret(reload.html)).toBeUndefined();
  expect(reload.html).toContain(`The key ${secret.slice(0, 9)}… was shown once`);
  expect(reload.res.headers.get('content-security-policy')).not.toContain('script-src');
  expect(cookiesSet(reload.res)[FLASH_COOKIE]).toBe('');
  expect(await keys.countBy({ ownerId: user.id })).toBe(before + 1);

  // The flash opens only for its session, and not at all once altered.
  const otherSession = await logInToKeyManager(appUrl, user.email, user.password);
  const replay = await visit(`${appUrl}/keys`, {
    headers: { cookie: `quiz_session=${otherSession}; ${FLASH_COOKIE}=${flash}` },
  });
  expect(replay.html).not.toContain(secret);
  expect(replay.html).toContain('id="create-form"');
  // A character inside the authentication tag (bytes 12 to 27), so the decoded bytes change.
  const swapped = flash[24] === 'A' ? 'B' : 'A';
  const tampered = await visit(
    `${appUrl}/keys`,
    withFlash(`${flash.slice(0, 24)}${swapped}${flash.slice(25)}`),
  );
  expect(tampered.res.status).toBe(200);
  expect(tampered.html).not.toContain(secret);
  expect(cookiesSet(tampered.res)[FLASH_COOKIE]).toBe('');

  // Delete: a POST without the confirmation only leads to the question.
  const stored = await keys.findOneByOrFail({ ownerId: user.id, label: 'PRG key' });
  const unconfirmed = await postForm(`${appUrl}/keys/${stored.id}/delete`, { csrf }, { cookie });
  expect(unconfirmed.status).toBe(303);
  expect(unconfirmed.headers.get('location')).toBe(`/keys/${stored.id}/delete`);
  expect((await keys.findOneByOrFail({ id: stored.id })).revokedAt).toBeNull();
  const question = await visit(`${appUrl}/keys/${stored.id}/delete`, { headers: { cookie } });
  expect(question.res.status).toBe(200);
  expect(question.html).toContain(`action="/keys/${stored.id}/delete" id="confirm-delete-form"`);
  expect(inputValue(question.html, 'confirm')).toBe('yes');
  expect((await keys.findOneByOrFail({ id: stored.id })).revokedAt).toBeNull();
  expect((await probeKey(appUrl, secret)).status).toBe(404);

  const confirmed = await postForm(
    `${appUrl}/keys/${stored.id}/delete`,
    { csrf: inputValue(question.html, 'csrf') ?? '', confirm: 'yes' },
    { cookie },
  );
  expect(confirmed.status).toBe(303);
  expect(confirmed.headers.get('location')).toBe('/keys');
  expect((await keys.findOneByOrFail({ id: stored.id })).revokedAt).not.toBeNull();
  expect(await probeKey(appUrl, secret)).toMatchObject({ status: 401 });
  const after = await visit(`${appUrl}/keys`, withFlash(cookiesSet(confirmed)[FLASH_COOKIE] ?? ''));
  expect(after.html).toContain(`The key ${secret.slice(0, 9)}… for localhost is deleted`);
  expect(after.html).not.toContain(`data-key-id="${stored.id}"`);
  // The confirmation sent twice (a double click) is answered the same way, not with an error.
  const twice = await postForm(
    `${appUrl}/keys/${stored.id}/delete`,
    { csrf, confirm: 'yes' },
    { cookie },
  );
  expect(twice.status).toBe(303);
  expect(await keys.countBy({ ownerId: user.id })).toBe(before + 1);
}

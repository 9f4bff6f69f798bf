import type { Request, Response } from 'express';
import {
  createRequestContext,
  type AppDeps,
  type RequestContext,
} from '../../context/request-context';
import { listApiKeys, type ApiKey } from '../../services/api-keys/api-key.service';
import { resolveWebLogin, type WebLogin } from '../../services/auth/web-session.service';
import { cookieOptions, readCookie } from './cookies';
import { CSRF_FIELD, DoubleSubmitCsrf, sessionCsrfToken, verifySessionCsrf } from './csrf';
import { formField } from './form-params';
import { sendPage } from './html';
import { FlashCookie, type KeyManagerFlash } from './key-manager.flash';
import { webhookOverviews } from './key-manager.webhooks';
import {
  keyManagerPage,
  keyName,
  type KeyManagerFrame,
  type KeyManagerView,
} from './key-manager.view';
import { loginFormPage } from './login-page.view';
import { CSRF_FAILED_MESSAGE } from './messages';

/**
 * The steps the key manager's routes share (key-manager.routes.ts): who is logged in, and the
 * pages it answers with (login form, key list, a flash's message, the refusals of a form post).
 */

export const SESSION_COOKIE = 'quiz_session';
export const CSRF_COOKIE = 'quiz_keys_csrf';
export const OPERATION = 'keyManager';
const NO_SUCH_KEY = 'That API key does not exist.';

/** What every step needs: the service, the manager's path and its two cookies' keepers. */
export interface KeyManagerSite {
  deps: AppDeps;
  /** `{basePath}/keys`, the path of the list page and the cookies' path. */
  root: string;
  /** The login form's CSRF token, before any session exists. */
  csrf: DoubleSubmitCsrf;
  flashCookie: FlashCookie;
}

export interface LoggedIn extends WebLogin {
  ctx: RequestContext;
}

export function keyManagerSite(deps: AppDeps): KeyManagerSite {
  const { cookieSecret, basePath } = deps.config;
  const root = `${basePath}/keys`;
  return {
    deps,
    root,
    csrf: new DoubleSubmitCsrf(cookieSecret, CSRF_COOKIE, root),
    flashCookie: new FlashCookie(cookieSecret, root),
  };
}

export function showLogin(
  site: KeyManagerSite,
  req: Request,
  res: Response,
  status: number,
  extra: { email?: string; error?: string } = {},
): void {
  const html = loginFormPage({
    title: 'Log in to manage your API keys',
    action: `${site.root}/login`,
    csrfToken: site.csrf.issue(req, res),
    ...extra,
  });
  sendPage(res, status, html);
}

/** The session of the request with its user, or undefined (the cookie is then cleared). */
export async function loggedIn(
  site: KeyManagerSite,
  req: Request,
  res: Response,
): Promise<LoggedIn | undefined> {
  const cookie = readCookie(req, SESSION_COOKIE);
  const login = await resolveWebLogin(site.deps, cookie);
  if (!login) {
    if (cookie !== undefined) {
      res.clearCookie(SESSION_COOKIE, cookieOptions(req, site.root, 'strict'));
    }
    return undefined;
  }
  const ctx = createRequestContext(site.deps, {
    requestId: res.locals.requestId as string,
    operation: OPERATION,
    // A browser session has no API key; the key policy looks only at the user.
    requester: { kind: 'user', userId: login.user.id, apiKeyId: 0 },
  });
  return { ...login, ctx };
}

export function frameOf(site: KeyManagerSite, current: LoggedIn): KeyManagerFrame {
  return {
    root: site.root,
    // An erased account has no sign-in left, so a signed-in user has an email.
    email: current.user.email ?? '',
    csrfToken: sessionCsrfToken(site.deps.config.cookieSecret, current.session.tokenHash),
  };
}

export async function showKeys(
  site: KeyManagerSite,
  res: Response,
  status: number,
  current: LoggedIn,
  extra: Pick<KeyManagerView, 'error' | 'notice' | 'form' | 'created'> = {},
): Promise<void> {
  const [all, webhooks] = await Promise.all([
    listApiKeys(current.ctx, current.user.id),
    webhookOverviews(current.ctx),
  ]);
  const keys = all.filter((key) => !key.revokedAt);
  const html = keyManagerPage({ ...frameOf(site, current), keys, webhooks, ...extra });
  // Only a page showing a secret loads a script: the copy button's.
  sendPage(res, status, html, { selfScripts: extra.created !== undefined });
}

/** What the list page shows for the flash a POST left; the secret only while the key is active. */
export async function showFlash(
  site: KeyManagerSite,
  req: Request,
  res: Response,
  current: LoggedIn,
  flash: KeyManagerFlash,
): Promise<void> {
  const all = await listApiKeys(current.ctx, current.user.id);
  const key = all.find((candidate) => candidate.id === flash.keyId);
  if (flash.kind === 'created' && key && !key.revokedAt) {
    // A reload finds this marker instead of the secret.
    site.flashCookie.set(req, res, current.session.tokenHash, { kind: 'shown', keyId: key.id });
    await showKeys(site, res, 200, current, { created: { secret: flash.secret, apiKey: key } });
    return;
  }
  site.flashCookie.clear(req, res);
  await showKeys(site, res, 200, current, { notice: flashNotice(flash, key) });
}

/** The sentence a reload after a creation, or the page after a deletion, shows. */
function flashNotice(flash: KeyManagerFlash, key: ApiKey | undefined): string | undefined {
  if (key && !key.revokedAt && flash.kind === 'shown') {
    return `The key ${keyName(key)} was shown once, when it was created, and is not shown again. If you did not copy it, delete it and create a new one.`;
  }
  if (key && flash.kind === 'deleted') {
    return `The key ${keyName(key)} for ${key.host} is deleted: requests with it are refused from now on.`;
  }
  return undefined;
}

/**
 * The user's own key named by a path's :keyId (active only, unless `orRevoked`), or undefined
 * after the 404 page was sent. Another user's key is answered like a missing one.
 */
export async function ownKey(
  site: KeyManagerSite,
  res: Response,
  current: LoggedIn,
  keyId: string,
  orRevoked = false,
): Promise<ApiKey | undefined> {
  const id = /^\d{1,10}$/.test(keyId) ? Number(keyId) : undefined;
  const keys = await listApiKeys(current.ctx, current.user.id);
  const key = keys.find((k) => k.id === id && (orRevoked || !k.revokedAt));
  if (!key) await showKeys(site, res, 404, current, { error: NO_SUCH_KEY });
  return key;
}

/** The logged-in user of a form post whose CSRF token matches the session; else the refusal is sent. */
export async function postedBySession(
  site: KeyManagerSite,
  req: Request,
  res: Response,
): Promise<LoggedIn | undefined> {
  const current = await loggedIn(site, req, res);
  if (!current) {
    showLogin(site, req, res, 401, { error: 'Your session has ended. Please log in again.' });
    return undefined;
  }
  const field = formField(req, OPERATION, CSRF_FIELD);
  if (!verifySessionCsrf(site.deps.config.cookieSecret, current.session.tokenHash, field)) {
    await showKeys(site, res, 403, current, { error: CSRF_FAILED_MESSAGE });
    return undefined;
  }
  return current;
}

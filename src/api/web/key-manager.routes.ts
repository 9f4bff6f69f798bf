import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  createRequestContext,
  type AppDeps,
  type RequestContext,
} from '../../context/request-context';
import { ServiceApiError } from '../../errors';
import {
  createApiKey,
  listApiKeys,
  revokeApiKey,
  type ApiKey,
  type CreatedApiKey,
} from '../../services/api-keys/api-key.service';
import { verifyLogin } from '../../services/auth/login.service';
import {
  createWebSession,
  destroyWebSession,
  resolveWebLogin,
  type WebLogin,
} from '../../services/auth/web-session.service';
import { cookieOptions, readCookie } from './cookies';
import { COPY_BUTTON_SCRIPT } from './copy-button.asset';
import { CSRF_FIELD, DoubleSubmitCsrf, sessionCsrfToken, verifySessionCsrf } from './csrf';
import { formField } from './form-params';
import { sendPage } from './html';
import { FlashCookie, type KeyManagerFlash } from './key-manager.flash';
import {
  COPY_SCRIPT_FILE,
  deleteConfirmPage,
  deletePath,
  keyManagerPage,
  keyName,
  type KeyManagerFrame,
  type KeyManagerView,
} from './key-manager.view';
import { loginFormPage } from './login-page.view';
import { CSRF_FAILED_MESSAGE, errorSentence, loginFailureMessage } from './messages';

export const SESSION_COOKIE = 'quiz_session';
const CSRF_COOKIE = 'quiz_keys_csrf';
const OPERATION = 'keyManager';
const NO_SUCH_KEY = 'That API key does not exist.';

interface LoggedIn extends WebLogin {
  ctx: RequestContext;
}

/**
 * The key manager (spec §5.1.4): a logged-in user lists, creates and deletes their own API keys.
 * The browser holds a session cookie; every form carries a CSRF token bound to that session.
 * Every successful POST answers 303 to a GET page (POST-redirect-GET), so a reload or the back
 * button never creates or deletes anything; a new key's secret reaches that page in a one-time
 * encrypted cookie (key-manager.flash.ts), never in the URL.
 */
export function keyManagerRoutes(deps: AppDeps, formBody: RequestHandler): Router {
  const { config } = deps;
  const root = `${config.basePath}/keys`;
  const csrf = new DoubleSubmitCsrf(config.cookieSecret, CSRF_COOKIE, root);
  const flashCookie = new FlashCookie(config.cookieSecret, root);
  const router = Router();

  function showLogin(
    req: Request,
    res: Response,
    status: number,
    extra: { email?: string; error?: string } = {},
  ): void {
    const html = loginFormPage({
      title: 'Log in to manage your API keys',
      action: `${root}/login`,
      csrfToken: csrf.issue(req, res),
      ...extra,
    });
    sendPage(res, status, html);
  }

  /** The session of the request with its user, or undefined (the cookie is then cleared). */
  async function loggedIn(req: Request, res: Response): Promise<LoggedIn | undefined> {
    const cookie = readCookie(req, SESSION_COOKIE);
    const login = await resolveWebLogin(deps, cookie);
    if (!login) {
      if (cookie !== undefined) res.clearCookie(SESSION_COOKIE, cookieOptions(req, root, 'strict'));
      return undefined;
    }
    const ctx = createRequestContext(deps, {
      requestId: res.locals.requestId as string,
      operation: OPERATION,
      // A browser session has no API key; the key policy looks only at the user.
      requester: { kind: 'user', userId: login.user.id, apiKeyId: 0 },
    });
    return { ...login, ctx };
  }

  function frameOf(current: LoggedIn): KeyManagerFrame {
    return {
      root,
      // An erased account has no sign-in left, so a signed-in user has an email.
      email: current.user.email ?? '',
      csrfToken: sessionCsrfToken(config.cookieSecret, current.session.tokenHash),
    };
  }

  async function showKeys(
    res: Response,
    status: number,
    current: LoggedIn,
    extra: Pick<KeyManagerView, 'error' | 'notice' | 'form' | 'created'> = {},
  ): Promise<void> {
    const keys = (await listApiKeys(current.ctx, current.user.id)).filter((key) => !key.revokedAt);
    const html = keyManagerPage({ ...frameOf(current), keys, ...extra });
    // Only a page showing a secret loads a script: the copy button's.
    sendPage(res, status, html, { selfScripts: extra.created !== undefined });
  }

  /** What the list page shows for the flash a POST left; the secret only while the key is active. */
  async function showFlash(
    req: Request,
    res: Response,
    current: LoggedIn,
    flash: KeyManagerFlash,
  ): Promise<void> {
    const all = await listApiKeys(current.ctx, current.user.id);
    const key = all.find((candidate) => candidate.id === flash.keyId);
    if (flash.kind === 'created' && key && !key.revokedAt) {
      // A reload finds this marker instead of the secret.
      flashCookie.set(req, res, current.session.tokenHash, { kind: 'shown', keyId: key.id });
      await showKeys(res, 200, current, { created: { secret: flash.secret, apiKey: key } });
      return;
    }
    flashCookie.clear(req, res);
    let notice: string | undefined;
    if (key && !key.revokedAt && flash.kind === 'shown') {
      notice = `The key ${keyName(key)} was shown once, when it was created, and is not shown again. If you did not copy it, delete it and create a new one.`;
    } else if (key && flash.kind === 'deleted') {
      notice = `The key ${keyName(key)} for ${key.host} is deleted: requests with it are refused from now on.`;
    }
    await showKeys(res, 200, current, { notice });
  }

  /**
   * The user's own key named by a path's :keyId (active only, unless `orRevoked`), or undefined
   * after the 404 page was sent. Another user's key is answered like a missing one.
   */
  async function ownKey(
    res: Response,
    current: LoggedIn,
    keyId: string,
    orRevoked = false,
  ): Promise<ApiKey | undefined> {
    const id = /^\d{1,10}$/.test(keyId) ? Number(keyId) : undefined;
    const keys = await listApiKeys(current.ctx, current.user.id);
    const key = keys.find((k) => k.id === id && (orRevoked || !k.revokedAt));
    if (!key) await showKeys(res, 404, current, { error: NO_SUCH_KEY });
    return key;
  }

  /** The logged-in user of a form post whose CSRF token matches the session; else the refusal is sent. */
  async function postedBySession(req: Request, res: Response): Promise<LoggedIn | undefined> {
    const current = await loggedIn(req, res);
    if (!current) {
      showLogin(req, res, 401, { error: 'Your session has ended. Please log in again.' });
      return undefined;
    }
    const field = formField(req, OPERATION, CSRF_FIELD);
    if (!verifySessionCsrf(config.cookieSecret, current.session.tokenHash, field)) {
      await showKeys(res, 403, current, { error: CSRF_FAILED_MESSAGE });
      return undefined;
    }
    return current;
  }

  router.get('/keys', async (req, res) => {
    const current = await loggedIn(req, res);
    if (!current) {
      flashCookie.clear(req, res);
      showLogin(req, res, 200);
      return;
    }
    const flash = flashCookie.read(req, current.session.tokenHash);
    if (flash) await showFlash(req, res, current, flash);
    else {
      flashCookie.clear(req, res);
      await showKeys(res, 200, current);
    }
  });

  router.get(`/keys/${COPY_SCRIPT_FILE}`, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.status(200).type('text/javascript; charset=utf-8').send(COPY_BUTTON_SCRIPT);
  });

  // The confirmation step: a GET page, so following the list's "Delete…" link changes nothing.
  router.get('/keys/:keyId/delete', async (req, res) => {
    const current = await loggedIn(req, res);
    if (!current) {
      showLogin(req, res, 200);
      return;
    }
    const key = await ownKey(res, current, String(req.params.keyId));
    if (key) sendPage(res, 200, deleteConfirmPage(frameOf(current), key));
  });

  router.post('/keys/login', formBody, async (req, res) => {
    const email = formField(req, OPERATION, 'email');
    const password = formField(req, OPERATION, 'password');
    if (!csrf.verify(req, formField(req, OPERATION, CSRF_FIELD))) {
      showLogin(req, res, 403, { email, error: CSRF_FAILED_MESSAGE });
      return;
    }
    if (!email || !password) {
      showLogin(req, res, 400, { email, error: 'Enter your email and password.' });
      return;
    }
    let userId: number;
    try {
      ({ id: userId } = await verifyLogin(
        {
          config,
          db: deps.db,
          metrics: deps.metrics,
          operation: OPERATION,
          logger: deps.logger.child({ requestId: res.locals.requestId as string }),
        },
        email,
        password,
        req.ip,
      ));
    } catch (error) {
      if (!(error instanceof ServiceApiError) || error.status >= 500) throw error;
      if (error.extras.retryAfterSeconds !== undefined) {
        res.setHeader('Retry-After', String(error.extras.retryAfterSeconds));
      }
      showLogin(req, res, error.status, { email, error: loginFailureMessage(error) });
      return;
    }
    // A session that was open before the login is replaced, never reused (session fixation).
    await destroyWebSession(deps, readCookie(req, SESSION_COOKIE));
    const { secret } = await createWebSession(deps, userId);
    res.cookie(
      SESSION_COOKIE,
      secret,
      cookieOptions(req, root, 'strict', config.webSessionTtlSeconds * 1000),
    );
    res.clearCookie(CSRF_COOKIE, cookieOptions(req, root, 'lax'));
    sendPage(res.location(root), 303, '');
  });

  router.post('/keys/create', formBody, async (req, res) => {
    const current = await postedBySession(req, res);
    if (!current) return;
    const host = formField(req, OPERATION, 'host') ?? '';
    const label = formField(req, OPERATION, 'label') ?? '';
    let created: CreatedApiKey;
    try {
      created = await createApiKey(current.ctx, { host, label, ownerId: current.user.id });
    } catch (error) {
      if (!(error instanceof ServiceApiError) || error.status >= 500) throw error;
      await showKeys(res, error.status, current, {
        error: errorSentence(error),
        form: { host, label },
      });
      return;
    }
    flashCookie.set(req, res, current.session.tokenHash, {
      kind: 'created',
      keyId: created.apiKey.id,
      secret: created.secret,
    });
    sendPage(res.location(root), 303, '');
  });

  router.post('/keys/:keyId/delete', formBody, async (req, res) => {
    const current = await postedBySession(req, res);
    if (!current) return;
    const confirmed = formField(req, OPERATION, 'confirm') === 'yes';
    // A confirmation sent twice (double click) finds the key already deleted, and says so again.
    const key = await ownKey(res, current, String(req.params.keyId), confirmed);
    if (!key) return;
    // Without the confirmation's field, nothing is deleted: the browser is sent to the question.
    if (!confirmed) {
      sendPage(res.location(deletePath(root, key.id)), 303, '');
      return;
    }
    await revokeApiKey(current.ctx, key.id);
    flashCookie.set(req, res, current.session.tokenHash, { kind: 'deleted', keyId: key.id });
    sendPage(res.location(root), 303, '');
  });

  router.post('/keys/logout', formBody, async (req, res) => {
    const current = await postedBySession(req, res);
    if (!current) return;
    await destroyWebSession(deps, readCookie(req, SESSION_COOKIE));
    res.clearCookie(SESSION_COOKIE, cookieOptions(req, root, 'strict'));
    flashCookie.clear(req, res);
    sendPage(res.location(root), 303, '');
  });

  return router;
}

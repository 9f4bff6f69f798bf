import { Router, type RequestHandler } from 'express';
import type { AppDeps } from '../../context/request-context';
import { ServiceApiError } from '../../errors';
import {
  createApiKey,
  revokeApiKey,
  type CreatedApiKey,
} from '../../services/api-keys/api-key.service';
import { verifyLogin } from '../../services/auth/login.service';
import { createWebSession, destroyWebSession } from '../../services/auth/web-session.service';
import { cookieOptions, readCookie } from './cookies';
import { COPY_BUTTON_SCRIPT } from './copy-button.asset';
import { CSRF_FIELD } from './csrf';
import { formField } from './form-params';
import { sendPage } from './html';
import {
  CSRF_COOKIE,
  OPERATION,
  SESSION_COOKIE,
  frameOf,
  keyManagerSite,
  loggedIn,
  ownKey,
  postedBySession,
  showFlash,
  showKeys,
  showLogin,
  type KeyManagerSite,
} from './key-manager.pages';
import { COPY_SCRIPT_FILE, deleteConfirmPage, deletePath } from './key-manager.view';
import { CSRF_FAILED_MESSAGE, errorSentence, loginFailureMessage } from './messages';

export { SESSION_COOKIE } from './key-manager.pages';

/**
 * The key manager (spec §5.1.4): a logged-in user lists, creates and deletes their own API keys.
 * The browser holds a session cookie; every form carries a CSRF token bound to that session.
 * Every successful POST answers 303 to a GET page (POST-redirect-GET), so a reload or the back
 * button never creates or deletes anything; a new key's secret reaches that page in a one-time
 * encrypted cookie (key-manager.flash.ts), never in the URL. The pages are key-manager.pages.ts.
 */
export function keyManagerRoutes(deps: AppDeps, formBody: RequestHandler): Router {
  const site = keyManagerSite(deps);
  const router = Router();
  router.get('/keys', listPage(site));
  router.get(`/keys/${COPY_SCRIPT_FILE}`, copyScript);
  router.get('/keys/:keyId/delete', deleteConfirmation(site));
  router.post('/keys/login', formBody, logIn(site));
  router.post('/keys/create', formBody, createKey(site));
  router.post('/keys/:keyId/delete', formBody, deleteKey(site));
  router.post('/keys/logout', formBody, logOut(site));
  return router;
}

/** The list of the user's keys, with what the last POST left to say; the login form if none. */
function listPage(site: KeyManagerSite): RequestHandler {
  return async (req, res) => {
    const current = await loggedIn(site, req, res);
    if (!current) {
      site.flashCookie.clear(req, res);
      showLogin(site, req, res, 200);
      return;
    }
    const flash = site.flashCookie.read(req, current.session.tokenHash);
    if (flash) await showFlash(site, req, res, current, flash);
    else {
      site.flashCookie.clear(req, res);
      await showKeys(site, res, 200, current);
    }
  };
}

const copyScript: RequestHandler = (_req, res) => {
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.status(200).type('text/javascript; charset=utf-8').send(COPY_BUTTON_SCRIPT);
};

/** The confirmation step: a GET page, so following the list's "Delete…" link changes nothing. */
function deleteConfirmation(site: KeyManagerSite): RequestHandler {
  return async (req, res) => {
    const current = await loggedIn(site, req, res);
    if (!current) {
      showLogin(site, req, res, 200);
      return;
    }
    const key = await ownKey(site, res, current, String(req.params.keyId));
    if (key) sendPage(res, 200, deleteConfirmPage(frameOf(site, current), key));
  };
}

/** The login form's post: a new web session, then the list page. */
function logIn(site: KeyManagerSite): RequestHandler {
  const { deps, root } = site;
  return async (req, res) => {
    const email = formField(req, OPERATION, 'email');
    const password = formField(req, OPERATION, 'password');
    if (!site.csrf.verify(req, formField(req, OPERATION, CSRF_FIELD))) {
      showLogin(site, req, res, 403, { email, error: CSRF_FAILED_MESSAGE });
      return;
    }
    if (!email || !password) {
      showLogin(site, req, res, 400, { email, error: 'Enter your email and password.' });
      return;
    }
    let userId: number;
    try {
      ({ id: userId } = await verifyLogin(
        {
          config: deps.config,
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
      showLogin(site, req, res, error.status, { email, error: loginFailureMessage(error) });
      return;
    }
    // A session that was open before the login is replaced, never reused (session fixation).
    await destroyWebSession(deps, readCookie(req, SESSION_COOKIE));
    const { secret } = await createWebSession(deps, userId);
    const maxAgeMs = deps.config.webSessionTtlSeconds * 1000;
    res.cookie(SESSION_COOKIE, secret, cookieOptions(req, root, 'strict', maxAgeMs));
    res.clearCookie(CSRF_COOKIE, cookieOptions(req, root, 'lax'));
    sendPage(res.location(root), 303, '');
  };
}

/** A new key: its secret goes to the list page in the flash cookie, never in the URL. */
function createKey(site: KeyManagerSite): RequestHandler {
  return async (req, res) => {
    const current = await postedBySession(site, req, res);
    if (!current) return;
    const host = formField(req, OPERATION, 'host') ?? '';
    const label = formField(req, OPERATION, 'label') ?? '';
    let created: CreatedApiKey;
    try {
      created = await createApiKey(current.ctx, { host, label, ownerId: current.user.id });
    } catch (error) {
      if (!(error instanceof ServiceApiError) || error.status >= 500) throw error;
      await showKeys(site, res, error.status, current, {
        error: errorSentence(error),
        form: { host, label },
      });
      return;
    }
    site.flashCookie.set(req, res, current.session.tokenHash, {
      kind: 'created',
      keyId: created.apiKey.id,
      secret: created.secret,
    });
    sendPage(res.location(site.root), 303, '');
  };
}

function deleteKey(site: KeyManagerSite): RequestHandler {
  return async (req, res) => {
    const current = await postedBySession(site, req, res);
    if (!current) return;
    const confirmed = formField(req, OPERATION, 'confirm') === 'yes';
    // A confirmation sent twice (double click) finds the key already deleted, and says so again.
    const key = await ownKey(site, res, current, String(req.params.keyId), confirmed);
    if (!key) return;
    // Without the confirmation's field, nothing is deleted: the browser is sent to the question.
    if (!confirmed) {
      sendPage(res.location(deletePath(site.root, key.id)), 303, '');
      return;
    }
    await revokeApiKey(current.ctx, key.id);
    site.flashCookie.set(req, res, current.session.tokenHash, { kind: 'deleted', keyId: key.id });
    sendPage(res.location(site.root), 303, '');
  };
}

function logOut(site: KeyManagerSite): RequestHandler {
  return async (req, res) => {
    const current = await postedBySession(site, req, res);
    if (!current) return;
    await destroyWebSession(site.deps, readCookie(req, SESSION_COOKIE));
    res.clearCookie(SESSION_COOKIE, cookieOptions(req, site.root, 'strict'));
    site.flashCookie.clear(req, res);
    sendPage(res.location(site.root), 303, '');
  };
}

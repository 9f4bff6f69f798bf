import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  createRequestContext,
  type AppDeps,
  type RequestContext,
} from '../../context/request-context';
import { User, type WebSession } from '../../db/entities';
import { ServiceApiError } from '../../errors';
import {
  createApiKey,
  listApiKeys,
  revokeApiKey,
  type CreatedApiKey,
} from '../../services/api-keys/api-key.service';
import { verifyLogin } from '../../services/auth/login.service';
import {
  createWebSession,
  destroyWebSession,
  resolveWebSession,
} from '../../services/auth/web-session.service';
import { cookieOptions, readCookie } from './cookies';
import { CSRF_FIELD, DoubleSubmitCsrf, sessionCsrfToken, verifySessionCsrf } from './csrf';
import { formField } from './form-params';
import { sendPage } from './html';
import { keyManagerPage, type KeyManagerView } from './key-manager.view';
import { loginFormPage } from './login-page.view';
import { CSRF_FAILED_MESSAGE, errorSentence, loginFailureMessage } from './messages';

export const SESSION_COOKIE = 'quiz_session';
const CSRF_COOKIE = 'quiz_keys_csrf';
const OPERATION = 'keyManager';

interface LoggedIn {
  session: WebSession;
  user: User;
  ctx: RequestContext;
}

/**
 * The key manager (spec §5.1.4): a logged-in user lists, creates and deletes their own API keys.
 * The browser holds a session cookie; every form carries a CSRF token bound to that session.
 */
export function keyManagerRoutes(deps: AppDeps, formBody: RequestHandler): Router {
  const { config } = deps;
  const root = `${config.basePath}/keys`;
  const csrf = new DoubleSubmitCsrf(config.cookieSecret, CSRF_COOKIE, root);
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
    const session = await resolveWebSession(deps, cookie);
    const user = session
      ? await deps.db.read.getRepository(User).findOneBy({ id: session.userId })
      : null;
    if (!session || !user) {
      if (cookie !== undefined) res.clearCookie(SESSION_COOKIE, cookieOptions(req, root, 'strict'));
      return undefined;
    }
    const ctx = createRequestContext(deps, {
      requestId: res.locals.requestId as string,
      operation: OPERATION,
      // A browser session has no API key; the key policy looks only at the user.
      requester: { kind: 'user', userId: user.id, apiKeyId: 0 },
    });
    return { session, user, ctx };
  }

  async function showKeys(
    res: Response,
    status: number,
    current: LoggedIn,
    extra: Pick<KeyManagerView, 'error' | 'notice' | 'form'> & { created?: CreatedApiKey } = {},
  ): Promise<void> {
    const keys = (await listApiKeys(current.ctx, current.user.id)).filter((key) => !key.revokedAt);
    const html = keyManagerPage({
      root,
      email: current.user.email,
      csrfToken: sessionCsrfToken(config.cookieSecret, current.session.tokenHash),
      keys,
      ...extra,
    });
    sendPage(res, status, html);
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
    if (current) await showKeys(res, 200, current);
    else showLogin(req, res, 200);
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
    let user: User;
    try {
      user = await verifyLogin(
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
      );
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
    const { secret } = await createWebSession(deps, user.id);
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
    try {
      const created = await createApiKey(current.ctx, { host, label, ownerId: current.user.id });
      await showKeys(res, 200, current, { created });
    } catch (error) {
      if (!(error instanceof ServiceApiError) || error.status >= 500) throw error;
      await showKeys(res, error.status, current, {
        error: errorSentence(error),
        form: { host, label },
      });
    }
  });

  router.post('/keys/:keyId/delete', formBody, async (req, res) => {
    const current = await postedBySession(req, res);
    if (!current) return;
    const keyId = String(req.params.keyId);
    try {
      if (!/^\d{1,10}$/.test(keyId))
        throw new ServiceApiError('notFound', OPERATION, 'no such key');
      await revokeApiKey(current.ctx, Number(keyId));
    } catch (error) {
      if (!(error instanceof ServiceApiError) || error.status >= 500) throw error;
      await showKeys(res, 404, current, { error: 'That API key does not exist.' });
      return;
    }
    sendPage(res.location(root), 303, '');
  });

  router.post('/keys/logout', formBody, async (req, res) => {
    const current = await postedBySession(req, res);
    if (!current) return;
    await destroyWebSession(deps, readCookie(req, SESSION_COOKIE));
    res.clearCookie(SESSION_COOKIE, cookieOptions(req, root, 'strict'));
    sendPage(res.location(root), 303, '');
  });

  return router;
}

import { Router, type Request, type RequestHandler, type Response } from 'express';
import { createRequestContext, type AppDeps } from '../../context/request-context';
import { ServiceApiError } from '../../errors';
import { issueAccessToken } from '../../services/auth/access-token.service';
import {
  redirectWithToken,
  resolveLoginTarget,
  verifyLogin,
  type LoginContext,
  type LoginTarget,
} from '../../services/auth/login.service';
import { CSRF_FIELD, DoubleSubmitCsrf } from './csrf';
import { formField, queryParam } from './form-params';
import { sendPage } from './html';
import { loginFormPage, messagePage } from './login-page.view';
import { CSRF_FAILED_MESSAGE, errorSentence, loginFailureMessage } from './messages';

export const LOGIN_PAGE_PATH = '/authentication/login.php';
const OPERATION = 'login';
const TITLE = 'Log in';
const CSRF_COOKIE = 'quiz_login_csrf';

interface LoginParams {
  apiKey?: string;
  redirectURL?: string;
}

/**
 * The login page of spec §5.3: `GET` shows the form, `POST` checks the identifiers and sends the
 * browser back to redirectURL with a new access token. A bad apiKey or redirectURL is reported
 * on the page and never redirects anywhere.
 */
export function loginPageRoutes(deps: AppDeps, formBody: RequestHandler): Router {
  const { config } = deps;
  const csrf = new DoubleSubmitCsrf(
    config.cookieSecret,
    CSRF_COOKIE,
    `${config.basePath}/authentication`,
  );
  const router = Router();

  const loginContext = (res: Response): LoginContext => ({
    config,
    db: deps.db,
    metrics: deps.metrics,
    operation: OPERATION,
    logger: deps.logger.child({ requestId: res.locals.requestId as string, operation: OPERATION }),
  });

  /** The target, or undefined after the error page was sent. */
  async function target(
    ctx: LoginContext,
    res: Response,
    params: LoginParams,
  ): Promise<LoginTarget | undefined> {
    try {
      return await resolveLoginTarget(ctx, params.apiKey, params.redirectURL);
    } catch (error) {
      if (!(error instanceof ServiceApiError) || error.status >= 500) throw error;
      sendPage(res, 400, messagePage('Cannot log in', errorSentence(error)));
      return undefined;
    }
  }

  function showForm(
    req: Request,
    res: Response,
    status: number,
    found: LoginTarget,
    apiKey: string,
    extra: { email?: string; error?: string } = {},
  ): void {
    const hidden = { apiKey, redirectURL: found.redirectText };
    const html = loginFormPage({
      title: TITLE,
      intro: `Log in to continue to ${found.redirectUrl.host}.`,
      action: `${config.basePath}${LOGIN_PAGE_PATH}?${new URLSearchParams(hidden).toString()}`,
      csrfToken: csrf.issue(req, res),
      hidden,
      ...extra,
    });
    // form-action must also allow the redirect target: browsers check it against redirects.
    sendPage(res, status, html, { formActionOrigins: [found.redirectUrl.origin] });
  }

  /** Form fields win over the query string: the form carries both, the query is the fallback. */
  function paramsOf(req: Request): LoginParams {
    const pick = (name: keyof LoginParams) =>
      (req.method === 'POST' ? formField(req, OPERATION, name) : undefined) ??
      queryParam(req, OPERATION, name);
    return { apiKey: pick('apiKey'), redirectURL: pick('redirectURL') };
  }

  function readParams(req: Request, res: Response): LoginParams | undefined {
    try {
      return paramsOf(req);
    } catch (error) {
      if (!(error instanceof ServiceApiError)) throw error;
      sendPage(res, 400, messagePage('Cannot log in', errorSentence(error)));
      return undefined;
    }
  }

  router.get(LOGIN_PAGE_PATH, async (req, res) => {
    const params = readParams(req, res);
    if (!params) return;
    const found = await target(loginContext(res), res, params);
    if (found) showForm(req, res, 200, found, params.apiKey ?? '');
  });

  router.post(LOGIN_PAGE_PATH, formBody, async (req, res) => {
    const params = readParams(req, res);
    if (!params) return;
    const ctx = loginContext(res);
    const found = await target(ctx, res, params);
    if (!found) return;
    const apiKey = params.apiKey ?? '';
    let email: string | undefined;
    let password: string | undefined;
    try {
      email = formField(req, OPERATION, 'email');
      password = formField(req, OPERATION, 'password');
    } catch (error) {
      if (!(error instanceof ServiceApiError)) throw error;
      showForm(req, res, 400, found, apiKey, { error: errorSentence(error) });
      return;
    }
    if (!csrf.verify(req, formField(req, OPERATION, CSRF_FIELD))) {
      showForm(req, res, 403, found, apiKey, { email, error: CSRF_FAILED_MESSAGE });
      return;
    }
    if (!email || !password) {
      showForm(req, res, 400, found, apiKey, { email, error: 'Enter your email and password.' });
      return;
    }

    let userId: number;
    try {
      userId = (await verifyLogin(ctx, email, password, req.ip)).id;
    } catch (error) {
      if (!(error instanceof ServiceApiError) || error.status >= 500) throw error;
      if (error.extras.retryAfterSeconds !== undefined) {
        res.setHeader('Retry-After', String(error.extras.retryAfterSeconds));
      }
      showForm(req, res, error.status, found, apiKey, {
        email,
        error: loginFailureMessage(error),
      });
      return;
    }

    const tokenContext = createRequestContext(deps, {
      requestId: res.locals.requestId as string,
      operation: OPERATION,
      requester: { kind: 'anonymous', apiKeyId: found.apiKey.id },
    });
    const issued = await issueAccessToken(tokenContext, userId, found.apiKey.id);
    const location = redirectWithToken(found.redirectText, issued);
    // Express's location() percent-encodes what a header cannot carry and leaves the rest as given.
    res.location(location);
    sendPage(res, 303, '', { formActionOrigins: [found.redirectUrl.origin] });
  });

  return router;
}

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

/** What the login page's steps share: the service and the form's CSRF cookie. */
interface LoginSite {
  deps: AppDeps;
  csrf: DoubleSubmitCsrf;
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
  const site: LoginSite = { deps, csrf };
  const router = Router();
  router.get(LOGIN_PAGE_PATH, loginForm(site));
  router.post(LOGIN_PAGE_PATH, formBody, submitLogin(site));
  return router;
}

function loginContext(deps: AppDeps, res: Response): LoginContext {
  return {
    config: deps.config,
    db: deps.db,
    metrics: deps.metrics,
    operation: OPERATION,
    logger: deps.logger.child({ requestId: res.locals.requestId as string, operation: OPERATION }),
  };
}

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

/** The form, and how to show it again: each refusal of a post shows it with its message. */
interface ShownForm {
  site: LoginSite;
  req: Request;
  res: Response;
  found: LoginTarget;
  apiKey: string;
}

function showForm(
  { site, req, res, found, apiKey }: ShownForm,
  status: number,
  extra: { email?: string; error?: string } = {},
): void {
  const hidden = { apiKey, redirectURL: found.redirectText };
  const html = loginFormPage({
    title: TITLE,
    intro: `Log in to continue to ${found.redirectUrl.host}.`,
    action: `${site.deps.config.basePath}${LOGIN_PAGE_PATH}?${new URLSearchParams(hidden).toString()}`,
    csrfToken: site.csrf.issue(req, res),
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

function loginForm(site: LoginSite): RequestHandler {
  return async (req, res) => {
    const params = readParams(req, res);
    if (!params) return;
    const found = await target(loginContext(site.deps, res), res, params);
    if (found) showForm({ site, req, res, found, apiKey: params.apiKey ?? '' }, 200);
  };
}

/** The post: the identifiers checked, then the browser sent to the target with a new token. */
function submitLogin(site: LoginSite): RequestHandler {
  return async (req, res) => {
    const params = readParams(req, res);
    if (!params) return;
    const ctx = loginContext(site.deps, res);
    const found = await target(ctx, res, params);
    if (!found) return;
    const form: ShownForm = { site, req, res, found, apiKey: params.apiKey ?? '' };
    const userId = await loggedInUser(ctx, form);
    if (userId === undefined) return;
    const tokenContext = createRequestContext(site.deps, {
      requestId: res.locals.requestId as string,
      operation: OPERATION,
      requester: { kind: 'anonymous', apiKeyId: found.apiKey.id },
    });
    const issued = await issueAccessToken(tokenContext, userId, found.apiKey.id);
    const location = redirectWithToken(found.redirectText, issued);
    // Express's location() percent-encodes what a header cannot carry and leaves the rest as given.
    res.location(location);
    sendPage(res, 303, '', { formActionOrigins: [found.redirectUrl.origin] });
  };
}

/** The user the posted identifiers name, or undefined after the form was shown again. */
async function loggedInUser(ctx: LoginContext, form: ShownForm): Promise<number | undefined> {
  const { req, res } = form;
  let email: string | undefined;
  let password: string | undefined;
  try {
    email = formField(req, OPERATION, 'email');
    password = formField(req, OPERATION, 'password');
  } catch (error) {
    if (!(error instanceof ServiceApiError)) throw error;
    showForm(form, 400, { error: errorSentence(error) });
    return undefined;
  }
  if (!form.site.csrf.verify(req, formField(req, OPERATION, CSRF_FIELD))) {
    showForm(form, 403, { email, error: CSRF_FAILED_MESSAGE });
    return undefined;
  }
  if (!email || !password) {
    showForm(form, 400, { email, error: 'Enter your email and password.' });
    return undefined;
  }
  try {
    return (await verifyLogin(ctx, email, password, req.ip)).id;
  } catch (error) {
    if (!(error instanceof ServiceApiError) || error.status >= 500) throw error;
    if (error.extras.retryAfterSeconds !== undefined) {
      res.setHeader('Retry-After', String(error.extras.retryAfterSeconds));
    }
    showForm(form, error.status, { email, error: loginFailureMessage(error) });
    return undefined;
  }
}

import express, { Router, type ErrorRequestHandler } from 'express';
import type { AppDeps } from '../../context/request-context';
import { toServiceApiError } from '../../errors';
import { sendPage } from './html';
import { keyManagerRoutes } from './key-manager.routes';
import { loginPageRoutes } from './login-page.routes';
import { messagePage } from './login-page.view';
import { errorSentence } from './messages';

/** Express's body parsers report their failures with a `type` and an HTTP `status`. */
function bodyParserFailure(error: unknown): { status: number; message: string } | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { type, status } = error as { type?: unknown; status?: unknown };
  if (typeof type !== 'string' || typeof status !== 'number') return undefined;
  if (type === 'entity.too.large') return { status: 413, message: 'The form is too large.' };
  if (status >= 400 && status < 500) return { status: 400, message: 'The form could not be read.' };
  return undefined;
}

/**
 * Failures of the HTML pages are answered in HTML: a person is reading, not a client library.
 * Only errors raised inside these routes come here; other paths keep the JSON error model.
 */
function htmlErrorHandler(deps: AppDeps): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const parser = bodyParserFailure(error);
    if (parser) {
      sendPage(res, parser.status, messagePage('Request refused', parser.message));
      return;
    }
    const requestId = String(res.locals.requestId);
    const domain = toServiceApiError(error, 'web', requestId);
    if (domain.status >= 500) {
      deps.logger.error({ err: error, requestId, status: domain.status }, 'page failed');
    }
    const message =
      domain.status === 503
        ? 'The service is temporarily unavailable. Please try again in a moment.'
        : domain.status >= 500
          ? `Something went wrong on our side (request ${requestId}).`
          : errorSentence(domain);
    sendPage(res, domain.status, messagePage('Something went wrong', message));
  };
}

/** The HTML pages: the login page that issues access tokens and the API key manager. */
export function webRoutes(deps: AppDeps): Router {
  const formBody = express.urlencoded({
    extended: false,
    limit: deps.config.bodyLimitBytes,
    parameterLimit: 100,
  });
  const router = Router();
  router.use(loginPageRoutes(deps, formBody));
  router.use(keyManagerRoutes(deps, formBody));
  router.use(htmlErrorHandler(deps));
  return router;
}

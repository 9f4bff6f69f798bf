import path from 'node:path';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { packageRoot } from '../../config/package-info';
import type { AppDeps } from '../../context/request-context';
import { DEMO_PAGE_CSS, DEMO_PAGE_HTML } from './demo/demo-page.view';

export const SDK_SCRIPT_PATH = '/sdk/quiz-api-client.js';
export const SDK_MODULE_PATH = '/sdk/quiz-api-client.mjs';

/** Where `npm run build:client` (part of `npm run build`) writes the browser bundles. */
export const BROWSER_BUILD_DIR = path.join(packageRoot(__dirname), 'dist', 'sdk');

/** Not versioned by URL: browsers revalidate (ETag) after five minutes. */
const STATIC_CACHE_CONTROL = 'public, max-age=300';

const DEMO_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

function setStaticHeaders(res: Response, contentType: string): void {
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', STATIC_CACHE_CONTROL);
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

/**
 * The browser SDK and the demo page's script, as built into dist/sdk. Read at each request
 * (ETag, Last-Modified and 304 by `send`), so a rebuild is served without a restart.
 */
function builtScript(deps: AppDeps, file: string, crossOrigin: boolean): RequestHandler {
  return (_req, res, next) => {
    setStaticHeaders(res, 'text/javascript; charset=utf-8');
    if (crossOrigin) {
      // A public file other sites may load, also as a module script (which needs CORS).
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    }
    res.sendFile(file, { root: BROWSER_BUILD_DIR, cacheControl: false }, (error?: Error) => {
      if (!error) return;
      if (res.headersSent) {
        next(error);
        return;
      }
      deps.logger.warn(
        { file: path.join(BROWSER_BUILD_DIR, file) },
        'browser build missing: run npm run build:client',
      );
      res
        .status(404)
        .type('text/plain')
        .setHeader('Cache-Control', 'no-store')
        .send(`${file} is not built: run npm run build:client\n`);
    });
  };
}

function sendDemoPage(req: Request, res: Response): void {
  // The page's relative links (../sdk/, demo-page.js) need the trailing slash.
  if (!req.path.endsWith('/')) {
    const url = new URL(req.originalUrl, 'http://placeholder');
    res.redirect(301, `${url.pathname}/${url.search}`);
    return;
  }
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Content-Security-Policy', DEMO_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // The API key binding reads the host from Referer on same-origin calls; the query never leaves.
  res.setHeader('Referrer-Policy', 'strict-origin');
  res.status(200).send(DEMO_PAGE_HTML);
}

/**
 * `{base}/sdk/quiz-api-client.js` (classic script, global `QuizApi`), `.mjs` (ES module), and the
 * demo page `{base}/demo/` with its script and style sheet.
 */
export function sdkRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get(SDK_SCRIPT_PATH, builtScript(deps, 'quiz-api-client.js', true));
  router.get(SDK_MODULE_PATH, builtScript(deps, 'quiz-api-client.mjs', true));
  router.get('/demo', sendDemoPage);
  router.get('/demo/demo-page.js', builtScript(deps, 'demo-page.js', false));
  router.get('/demo/demo-page.css', (_req, res) => {
    setStaticHeaders(res, 'text/css; charset=utf-8');
    res.status(200).send(DEMO_PAGE_CSS);
  });
  return router;
}

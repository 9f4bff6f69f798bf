import { Router, type Request } from 'express';
import type { Config } from '../../config/config';
import { ACCESS_TOKEN_STORAGE_KEY } from '@quiz-results/client';
import { presetApiKey, type FrontDoorOptions } from './front-door.presets';
import { scriptAsset, setPageHeaders } from './html';
import { frontDoorLinks, LANDING_PAGE_PATH } from './landing-page.links';
import { landingPage } from './landing-page.view';

const SCRIPT_PATH = '/landing-page.js';

/**
 * Run before the page is drawn: a token the login page appended is kept where the demo page and
 * the SDK read it (localStorage, as storeAccessTokenFromUrl does), then removed from the address
 * bar, so it is neither bookmarked, shared, nor left in the history.
 */
const LANDING_SCRIPT = `'use strict';
(function () {
  var url = new URL(location.href);
  var value = url.searchParams.get('accessToken');
  if (value === null) return;
  try {
    var parsed = JSON.parse(value);
    if (typeof parsed.token === 'string' && parsed.token !== '' &&
        typeof parsed.expiresIn === 'number' && parsed.expiresIn > 0) {
      localStorage.setItem(${JSON.stringify(ACCESS_TOKEN_STORAGE_KEY)}, JSON.stringify({
        token: parsed.token, expiresAt: Date.now() + parsed.expiresIn * 1000
      }));
    }
  } catch (error) {
    // Unreadable: removed from the address bar all the same.
  }
  url.searchParams.delete('accessToken');
  history.replaceState(history.state, '', url.href);
})();
`;

/** The landing page's policy: the page headers of html.ts, plus its one script from 'self'. */
const LANDING_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

function loggedInRedirect(req: Request): boolean {
  return typeof req.query.accessToken === 'string';
}

/** `{base}/`: the landing page, and its script. */
export function landingPageRoutes(config: Config, options: FrontDoorOptions): Router {
  const router = Router();
  const links = frontDoorLinks(config, options);
  const scriptPath = `${config.basePath}${SCRIPT_PATH}`;
  router.get(LANDING_PAGE_PATH, (req, res) => {
    setPageHeaders(res);
    res.setHeader('Content-Security-Policy', LANDING_CSP);
    res
      .status(200)
      .type('html')
      .send(
        landingPage({
          links,
          demoApiKey: presetApiKey(config, options),
          loggedIn: loggedInRedirect(req),
          scriptPath,
        }),
      );
  });
  router.get(SCRIPT_PATH, scriptAsset(LANDING_SCRIPT));
  return router;
}

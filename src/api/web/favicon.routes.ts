import { Router, type Response } from 'express';

/** The service's icon: a quiz card with a check mark, small enough to send inline. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect x="2" y="2" width="28" height="28" rx="6" fill="#1f4e79"/>
<path d="M9 16.5l5 5 9-11" fill="none" stroke="#fff" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/>
</svg>
`;

/** Where the pages link it; served at the server root, like /favicon.ico that browsers ask for. */
export const FAVICON_PATH = '/favicon.svg';

/** The `<link>` of a page's head. */
export const FAVICON_LINK = `<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">`;

function sendIcon(res: Response): void {
  // Cacheable for a day: browsers ask for it on every page otherwise.
  res.setHeader('Cache-Control', 'public, max-age=86400');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.status(200).type('image/svg+xml').send(FAVICON_SVG);
}

/**
 * /favicon.ico and /favicon.svg at the server root (whatever BASE_PATH is: browsers ask the
 * origin's root). Browsers that ask /favicon.ico on their own (the IDE and REST reference pages
 * link no icon) take the SVG too, by its content type.
 */
export function faviconRoutes(): Router {
  const router = Router();
  router.get(['/favicon.ico', FAVICON_PATH], (_req, res) => sendIcon(res));
  return router;
}

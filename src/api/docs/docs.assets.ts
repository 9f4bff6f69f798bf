import path from 'node:path';
import express, { type RequestHandler } from 'express';

/** The folder of an installed package, found as Node finds the package itself. */
export function packageFolder(entry: string, up: number): string {
  return path.resolve(path.dirname(require.resolve(entry)), ...Array<string>(up).fill('..'));
}

/** Versioned by the installed package, not by URL: revalidated (ETag) after an hour. */
const ASSET_CACHE_CONTROL = 'public, max-age=3600';

/**
 * The files of an npm package's folder that `allowed` names, as static assets (ETag, 304); any
 * other name is passed on (and ends as the app's 404), so nothing else of node_modules is served.
 */
export function packageAssets(folder: string, allowed: (file: string) => boolean): RequestHandler {
  const serve = express.static(folder, {
    index: false,
    redirect: false,
    dotfiles: 'deny',
    cacheControl: false,
    setHeaders: (res) => {
      res.setHeader('Cache-Control', ASSET_CACHE_CONTROL);
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  return (req, res, next) => {
    const file = req.path.slice(1);
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (file.includes('/') || !allowed(file)) return next();
    serve(req, res, next);
  };
}

/** JSON for a `<script type="application/json">` data block: nothing in it can end the block. */
export function jsonDataBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
  return `<script type="application/json" id="${id}">${json}</script>`;
}

/** The headers of a documentation page: its own CSP, not cached (it may carry the demo key). */
export function docsPageHeaders(res: express.Response, csp: readonly string[]): void {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Security-Policy', csp.join('; '));
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // The API key binding reads the host from Referer on same-origin calls; the query never leaves.
  res.setHeader('Referrer-Policy', 'strict-origin');
}

import type { RequestHandler, Response } from 'express';
import { FAVICON_LINK } from './favicon.routes';

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for HTML element content and quoted attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (char) => ESCAPES[char]);
}

/** Longest caller-supplied value echoed in a message, so a huge value is not mirrored in full. */
const MAX_SHOWN = 200;

function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

/** A caller-supplied value made fit to show in a message: shortened, control characters replaced. */
export function shownValue(value: string): string {
  const visible = Array.from(value, (char) => (isControl(char) ? '\ufffd' : char)).join('');
  return visible.length > MAX_SHOWN ? `${visible.slice(0, MAX_SHOWN)}…` : visible;
}

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d1f23; }
main { max-width: 44rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: 8px;
  box-shadow: 0 1px 4px rgba(0,0,0,.12); }
h1 { font-size: 1.4rem; margin-top: 0; }
label { display: block; margin: 1rem 0 .25rem; font-weight: 600; }
input[type=email], input[type=password], input[type=text] { width: 100%; box-sizing: border-box;
  padding: .5rem; font-size: 1rem; border: 1px solid #b8bcc4; border-radius: 4px; }
button { margin-top: 1rem; padding: .5rem 1.2rem; font-size: 1rem; border: 0; border-radius: 4px;
  background: #2456c7; color: #fff; cursor: pointer; }
button.danger { background: #b3261e; margin-top: 0; }
button.link { background: none; color: #2456c7; padding: 0; margin: 0; }
.error { background: #fdecea; border: 1px solid #f5c2bf; color: #8a1c14; padding: .75rem 1rem;
  border-radius: 4px; }
.notice { background: #e8f3ec; border: 1px solid #b9dcc5; padding: .75rem 1rem; border-radius: 4px; }
code.secret { display: block; word-break: break-all; font-size: 1.05rem; background: #f0f1f4;
  padding: .75rem; border-radius: 4px; }
table { width: 100%; border-collapse: collapse; margin-top: 1rem; font-size: .9rem; }
th, td { text-align: left; padding: .4rem; border-bottom: 1px solid #e1e3e8; vertical-align: top; }
header { display: flex; justify-content: space-between; align-items: baseline; }
`;

/** What a page adds to the shared head: CSS of its own, and scripts served by the service. */
export interface PageExtras {
  style?: string;
  scripts?: readonly string[];
}

/** A whole HTML document; `title` is text, `body` is already-escaped HTML. */
export function renderPage(title: string, body: string, extras: PageExtras = {}): string {
  const scripts = (extras.scripts ?? [])
    .map((src) => `<script src="${escapeHtml(src)}" defer></script>\n`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
${FAVICON_LINK}
<style>${STYLE}${extras.style ?? ''}</style>
${scripts}</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** An error box; the message is text. */
export function errorBox(message: string): string {
  return `<p class="error" role="alert" id="error">${escapeHtml(message)}</p>`;
}

/** Origins a page may submit its form to (and be redirected to from it), besides itself. */
export interface PageSecurity {
  formActionOrigins?: readonly string[];
  /** Allows scripts from the service itself (never inline), for pages that load one. */
  selfScripts?: boolean;
}

/**
 * The headers of every HTML page: not cached (they carry CSRF tokens, keys, tokens), not framed
 * (clickjacking of the login form), no inline scripts (none at all unless asked for), and no
 * Referer that would leak the query.
 */
export function setPageHeaders(res: Response, security: PageSecurity = {}): void {
  const formAction = ["'self'", ...(security.formActionOrigins ?? [])].join(' ');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none';${security.selfScripts ? " script-src 'self';" : ''} style-src 'unsafe-inline'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'`,
  );
}

export function sendPage(
  res: Response,
  status: number,
  html: string,
  security: PageSecurity = {},
): void {
  setPageHeaders(res, security);
  res.status(status).type('html').send(html);
}

/** A script of the service's own, served as a file so the pages' CSP needs no inline script. */
export function scriptAsset(text: string): RequestHandler {
  return (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.status(200).type('text/javascript; charset=utf-8').send(text);
  };
}

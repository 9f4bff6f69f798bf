import type { CookieOptions, Request } from 'express';

/** The value of one cookie of the request, or undefined; a malformed header counts as absent. */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0 || part.slice(0, index).trim() !== name) continue;
    const raw = part.slice(index + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** HttpOnly always; Secure whenever the request itself came over TLS (directly or via a trusted proxy). */
export function cookieOptions(
  req: Request,
  path: string,
  sameSite: 'lax' | 'strict',
  maxAgeMs?: number,
): CookieOptions {
  return {
    httpOnly: true,
    sameSite,
    secure: req.secure,
    path,
    ...(maxAgeMs === undefined ? {} : { maxAge: maxAgeMs }),
  };
}

import { isIP } from 'node:net';

/** Where a request says it comes from: the headers a browser sets, and the peer address. */
export interface RequestOrigin {
  origin?: string;
  referer?: string;
  clientIp?: string;
}

function bare(host: string): string {
  let value = host.trim().toLowerCase();
  if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
  return value.replace(/\.$/, '');
}

/** ::ffff:127.0.0.1 is 127.0.0.1: dual-stack sockets report IPv4 peers that way. */
export function normalizeIp(ip: string): string {
  const value = bare(ip);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(value);
  return mapped ? mapped[1] : value;
}

export function isLoopback(ip: string): boolean {
  const value = normalizeIp(ip);
  return value === '::1' || /^127\.\d+\.\d+\.\d+$/.test(value);
}

function hostOfUrl(text: string | undefined): string | undefined {
  if (!text || text === 'null') return undefined;
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return bare(url.hostname);
  } catch {
    return undefined;
  }
}

/**
 * Whether a host (a name or an address) falls under a key's bound host: the same name or a
 * subdomain of it, the same address, or, for `localhost`, any loopback address or *.localhost.
 */
export function hostMatchesKey(keyHost: string, host: string): boolean {
  const bound = bare(keyHost);
  const candidate = isIP(bare(host)) ? normalizeIp(host) : bare(host);
  if (bound === 'localhost') {
    return (
      candidate === 'localhost' ||
      candidate.endsWith('.localhost') ||
      (isIP(candidate) > 0 && isLoopback(candidate))
    );
  }
  if (isIP(bound)) return isIP(candidate) > 0 && normalizeIp(bound) === candidate;
  if (isIP(candidate)) return false;
  return candidate === bound || candidate.endsWith(`.${bound}`);
}

/**
 * contract.md §3: a browser request matches by the host of its Origin (else Referer); a request
 * without those headers matches when its client IP equals a key bound to an IP (or loopback for
 * a key bound to localhost).
 */
export function requestMatchesKey(keyHost: string, request: RequestOrigin): boolean {
  const declared = hostOfUrl(request.origin) ?? hostOfUrl(request.referer);
  if (declared !== undefined) return hostMatchesKey(keyHost, declared);
  if (request.origin !== undefined && request.origin !== 'null' && request.origin !== '')
    return false;
  if (!request.clientIp) return false;
  const bound = bare(keyHost);
  if (bound !== 'localhost' && !isIP(bound)) return false;
  return hostMatchesKey(bound, request.clientIp);
}

/** A redirect target for the login page: an absolute http(s) URL without credentials, on the key's host. */
export function redirectUrlMatchesKey(keyHost: string, redirectUrl: string): URL | undefined {
  // Backslashes and control characters are read differently by browsers and parsers: refuse them.
  if (
    /[\\\s]/.test(redirectUrl) ||
    [...redirectUrl].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
  ) {
    return undefined;
  }
  if (!/^https?:\/\/[^/]/i.test(redirectUrl)) return undefined;
  let url: URL;
  try {
    url = new URL(redirectUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  // The authority must be exactly what the parser saw, so no encoded trick can change it.
  const authority = redirectUrl.slice(redirectUrl.indexOf('//') + 2).split(/[/?#]/)[0];
  if (authority.includes('@') || authority.includes('%')) return undefined;
  return hostMatchesKey(keyHost, url.hostname) ? url : undefined;
}

import { isIP } from 'node:net';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The host an API key is bound to, normalised: a domain name (lower case, no trailing dot),
 * `localhost`, or an IP address. Undefined when the text is none of those.
 */
export function normalizeKeyHost(input: string): string | undefined {
  let host = input.trim().toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (isIP(host)) return host;
  host = host.replace(/\.$/, '');
  if (host.length === 0 || host.length > 253) return undefined;
  const labels = host.split('.');
  if (!labels.every((label) => LABEL.test(label))) return undefined;
  // A name made only of digits and dots is a malformed IP address, not a domain.
  if (/^[\d.]+$/.test(host)) return undefined;
  return host;
}

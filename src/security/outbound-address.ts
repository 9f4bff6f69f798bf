import { promises as dns } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Errors } from '../errors';

/**
 * The guard of the URLs the service itself calls (webhook endpoints, contract.md §16): a user
 * chooses the URL, so without it the service would reach, on the user's behalf, what only it can
 * reach (its database, a cloud metadata service, an admin port on the private network).
 */

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (a test gives its own). */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface OutboundPolicy {
  /**
   * Hosts (WEBHOOK_ALLOWED_HOSTS, written as `URL.hostname` writes them) that may be reached over
   * http and on any address: the operator's own receivers, and tests on loopback.
   */
  allowedHosts: readonly string[];
  resolve?: HostResolver;
}

/** A URL that passed the guard, and the address that was checked: delivery connects to it only. */
export interface CheckedUrl {
  url: URL;
  /** The URL's host without IPv6 brackets: what Host and TLS SNI name. */
  hostname: string;
  address: string;
  family: 4 | 6;
  /** Whether the host is in WEBHOOK_ALLOWED_HOSTS (its addresses were then not checked). */
  allowedHost: boolean;
}

/** A lookup that takes longer fails: a slow resolver must not hold a delivery past its lease. */
export const LOOKUP_TIMEOUT_MS = 5_000;

const systemResolver: HostResolver = async (hostname) => {
  // verbatim: the resolver's order, so the address used is the one the system would pick first.
  const lookup = dns.lookup(hostname, { all: true, verbatim: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_TIMEOUT_MS);
    timer.unref();
  });
  try {
    const found = await Promise.race([lookup, timeout]);
    return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Refusals because the host did not resolve (no such name, or the resolver failed or was slow):
 * at a delivery such a refusal may pass, so the attempt is retried rather than failed.
 */
const UNRESOLVED = new WeakSet<object>();

/** Whether `error` is checkOutboundUrl's refusal of a host that did not resolve. */
export function isUnresolvedHost(error: unknown): boolean {
  return typeof error === 'object' && error !== null && UNRESOLVED.has(error);
}

/** [what the range is, its network, its prefix length], first match wins. */
const IPV4_RANGES: readonly [string, string, number][] = [
  ['an unspecified ("this network")', '0.0.0.0', 8],
  ['a private', '10.0.0.0', 8],
  ['a shared (carrier-grade NAT)', '100.64.0.0', 10],
  ['a loopback', '127.0.0.0', 8],
  ['a link-local', '169.254.0.0', 16],
  ['a private', '172.16.0.0', 12],
  ['a reserved (IETF protocol)', '192.0.0.0', 24],
  ['a documentation', '192.0.2.0', 24],
  ['a private', '192.168.0.0', 16],
  ['a benchmarking', '198.18.0.0', 15],
  ['a documentation', '198.51.100.0', 24],
  ['a documentation', '203.0.113.0', 24],
  ['a multicast', '224.0.0.0', 4],
  ['the broadcast', '255.255.255.255', 32],
  ['a reserved', '240.0.0.0', 4],
];

const IPV6_RANGES: readonly [string, string, number][] = [
  ['the unspecified', '::', 128],
  ['the loopback', '::1', 128],
  // ::a.b.c.d, deprecated: nothing public lives there.
  ['an IPv4-compatible (deprecated)', '::', 96],
  ['a discard-only', '100::', 64],
  ['a documentation', '2001:db8::', 32],
  ['a unique-local (private)', 'fc00::', 7],
  ['a site-local (deprecated)', 'fec0::', 10],
  ['a link-local', 'fe80::', 10],
  ['a multicast', 'ff00::', 8],
  // RFC 8215: translators of a site's own network, whose IPv4 addresses may be private.
  ['a local-use NAT64', '64:ff9b:1::', 48],
];

function blockLists(
  ranges: readonly [string, string, number][],
  type: 'ipv4' | 'ipv6',
): [string, BlockList][] {
  return ranges.map(([label, network, prefix]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, type);
    return [label, list];
  });
}

const IPV4_BLOCKS = blockLists(IPV4_RANGES, 'ipv4');
const IPV6_BLOCKS = blockLists(IPV6_RANGES, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail and a zone id allowed). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0] as string;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const first = head === '' ? [] : head.split(':');
  const last = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - first.length - last.length).fill('0');
  return [...first, ...zeros, ...last].map((group) => parseInt(group, 16));
}

const v4Of = (high: number, low: number): string =>
  [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/**
 * The IPv4 address an IPv6 address carries to an IPv4 host, if it is one of the forms that
 * reach it: IPv4-mapped (::ffff:a.b.c.d, how a dual-stack socket connects to IPv4),
 * IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002:aabb:ccdd::/48).
 */
function embeddedIpv4(groups: readonly number[]): string | undefined {
  const g = (index: number) => groups[index] as number;
  if (groups.slice(0, 5).every((x) => x === 0) && g(5) === 0xffff) return v4Of(g(6), g(7));
  // IPv4-translated (::ffff:0:a.b.c.d, RFC 2765).
  if (groups.slice(0, 4).every((x) => x === 0) && g(4) === 0xffff && g(5) === 0) {
    return v4Of(g(6), g(7));
  }
  if (g(0) === 0x64 && g(1) === 0xff9b && groups.slice(2, 6).every((x) => x === 0)) {
    return v4Of(g(6), g(7));
  }
  if (g(0) === 0x2002) return v4Of(g(1), g(2));
  return undefined;
}

/**
 * Why an address may not be called ("a loopback", "a private"…), or undefined when it is a
 * public unicast address.
 */
export function refusedAddressKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) {
    if (address === '169.254.169.254') return 'the cloud metadata (link-local)';
    return IPV4_BLOCKS.find(([, list]) => list.check(address, 'ipv4'))?.[0];
  }
  if (family !== 6) return 'an unreadable';
  const inner = embeddedIpv4(ipv6Groups(address));
  if (inner !== undefined) {
    const kind = refusedAddressKind(inner);
    return kind === undefined ? undefined : `${kind} IPv4 (${inner}, embedded in IPv6)`;
  }
  return IPV6_BLOCKS.find(([, list]) => list.check(address.split('%')[0] as string, 'ipv6'))?.[0];
}

/** The URL as it may be repeated in an error: without its user name and password. */
function shownUrl(raw: string, parsed: URL | undefined): string {
  if (!parsed || (parsed.username === '' && parsed.password === '')) return raw;
  const copy = new URL(parsed.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/**
 * Checks a URL the service is to call and resolves its host: https only, no credentials in it,
 * and no address of the host loopback, private, link-local, metadata, multicast or otherwise not
 * public, unless the host is allowed (then http and any address are accepted). Every address is
 * checked, not only the first: a name with one public and one private address is refused. Any
 * port is accepted. Returns the address to connect to, so that the connection goes where the
 * check looked (no second resolution an attacker's DNS could answer differently). Throws
 * BadParameterException on `parameterName` naming the reason.
 */
export async function checkOutboundUrl(
  operation: string,
  raw: string,
  policy: OutboundPolicy,
  parameterName = 'url',
): Promise<CheckedUrl> {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  const refuse = (reason: string) =>
    Errors.badParameter(operation, parameterName, shownUrl(raw, url), reason);
  if (!url) throw refuse('is not a valid URL');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw refuse(`must be an https URL, not ${url.protocol.replace(/:$/, '')}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw refuse('must not hold a user name or password (the message is signed instead)');
  }
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const allowedHost = policy.allowedHosts.includes(url.hostname);
  if (url.protocol === 'http:' && !allowedHost) {
    throw refuse(`must be an https URL (http only for the hosts WEBHOOK_ALLOWED_HOSTS allows)`);
  }
  let addresses: readonly ResolvedAddress[];
  const literal = isIP(hostname);
  if (literal !== 0) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolver)(hostname);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) {
      const refusal = refuse(`names a host that does not resolve: ${hostname}`);
      UNRESOLVED.add(refusal);
      throw refusal;
    }
  }
  if (!allowedHost) {
    for (const { address } of addresses) {
      const kind = refusedAddressKind(address);
      if (kind !== undefined) {
        throw refuse(
          `${literal !== 0 ? 'is' : `names a host that resolves to ${address},`} ${kind} address, which webhooks may not reach`,
        );
      }
    }
  }
  const [first] = addresses as [ResolvedAddress];
  return { url, hostname, address: first.address, family: first.family, allowedHost };
}

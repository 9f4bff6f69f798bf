import type { Config } from '../../config/config';
import { ideServed, presetApiKey, type FrontDoorOptions } from './front-door.presets';

/** One address of the front door: a page, a tool or an endpoint, relative to the service URL. */
export interface FrontDoorLink {
  label: string;
  path: string;
  /** Shown beside the link on the landing page. */
  note?: string;
}

export const LANDING_PAGE_PATH = '/';
export const DOCS_PATH = '/docs/';
export const OPENAPI_PATH = '/openapi.json';
export const IDE_PATH = '/ide/';

/**
 * What a newcomer or an operator reaches first, in the order the landing page and the start
 * banner list them. Under the base path except the health probes, which are at the root.
 */
export function frontDoorLinks(config: Config, options: FrontDoorOptions): FrontDoorLink[] {
  const base = config.basePath;
  const apiKey = presetApiKey(config, options);
  const links: FrontDoorLink[] = [
    { label: 'Start page', path: `${base}${LANDING_PAGE_PATH}` },
    {
      label: 'Demo page',
      path: `${base}/demo/${apiKey ? `?apiKey=${encodeURIComponent(apiKey)}` : ''}`,
      note: apiKey
        ? 'results of the demo classroom, with the demo key'
        : 'a small client of the API; it asks for an API key',
    },
    { label: 'GraphQL endpoint', path: `${base}/graphql`, note: 'POST, or a WebSocket' },
  ];
  if (ideServed(config)) {
    links.push(
      {
        label: 'GraphQL IDE',
        path: `${base}${IDE_PATH}`,
        note: 'Ruru, served by the service (works offline)',
      },
      {
        label: 'Apollo Sandbox',
        path: `${base}/graphql`,
        note: "in a browser; loaded from Apollo's servers (needs internet)",
      },
    );
  }
  links.push(
    { label: 'REST reference', path: `${base}${DOCS_PATH}`, note: 'try the operations out' },
    {
      label: 'OpenAPI description',
      path: `${base}${OPENAPI_PATH}`,
      note: 'OpenAPI 3.1, for code generators and API tools',
    },
    { label: 'Key manager', path: `${base}/keys`, note: 'log in to create and delete API keys' },
    { label: 'Liveness', path: '/livez', note: '/livez: the process serves HTTP' },
    {
      label: 'Readiness',
      path: '/readyz',
      note: '/readyz: the database answers and no shutdown has begun',
    },
    { label: 'Health', path: '/healthz', note: '/healthz: the database answers' },
  );
  if (config.metrics.enabled) {
    links.push({
      label: 'Metrics',
      path: '/metrics',
      note: config.metrics.tokenSha256
        ? 'Prometheus text format; needs the metrics bearer token'
        : 'Prometheus text format',
    });
  }
  return links;
}

/** The banner lines of the start: one address a line, labels aligned. */
export function frontDoorBanner(url: string, links: readonly FrontDoorLink[]): string[] {
  const width = Math.max(...links.map((link) => link.label.length)) + 1;
  return links.map((link) => `${`${link.label}:`.padEnd(width)} ${url}${link.path}`);
}

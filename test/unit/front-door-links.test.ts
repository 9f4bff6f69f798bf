import { loadConfig } from '../../src/config/config';
import { frontDoorBanner, frontDoorLinks } from '../../src/api/web/landing-page.links';

const KEY = 'qk_demo-key';

describe('the front door addresses (landing page and start banner)', () => {
  it('lists, one a line, the start page, the demo with its key, GraphQL and its IDEs, the REST reference, the key manager and the probes', () => {
    const config = loadConfig({ NODE_ENV: 'development', BASE_PATH: '/api' });
    const lines = frontDoorBanner(
      'http://localhost:3000',
      frontDoorLinks(config, { demoApiKey: KEY }),
    );
    expect(lines).toEqual([
      'Start page:          http://localhost:3000/api/',
      `Demo page:           http://localhost:3000/api/demo/?apiKey=${KEY}`,
      'GraphQL endpoint:    http://localhost:3000/api/graphql',
      'GraphQL IDE:         http://localhost:3000/api/ide/',
      'Apollo Sandbox:      http://localhost:3000/api/graphql',
      'REST reference:      http://localhost:3000/api/docs/',
      'OpenAPI description: http://localhost:3000/api/openapi.json',
      'Key manager:         http://localhost:3000/api/keys',
      // The probes are at the root whatever the base path.
      'Liveness:            http://localhost:3000/livez',
      'Readiness:           http://localhost:3000/readyz',
      'Health:              http://localhost:3000/healthz',
      'Metrics:             http://localhost:3000/metrics',
    ]);
  });

  it('names the metrics token when one guards /metrics, and leaves /metrics out when it is off', () => {
    const guarded = frontDoorLinks(
      loadConfig({ NODE_ENV: 'development', METRICS_TOKEN: 'a-metrics-token-0123456789' }),
      {},
    ).find((link) => link.label === 'Metrics');
    expect(guarded?.note).toContain('bearer token');
    const off = frontDoorLinks(
      loadConfig({ NODE_ENV: 'development', METRICS_ENABLED: 'false' }),
      {},
    );
    expect(off.map((link) => link.path)).not.toContain('/metrics');
  });

  it('in production: no demo key and no IDE (no Sandbox, no introspection there)', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      COOKIE_SECRET: 'a-production-cookie-secret-of-32-characters',
    });
    const links = frontDoorLinks(config, { demoApiKey: KEY });
    expect(links.map((link) => link.label)).toEqual([
      'Start page',
      'Demo page',
      'GraphQL endpoint',
      'REST reference',
      'OpenAPI description',
      'Key manager',
      'Liveness',
      'Readiness',
      'Health',
      'Metrics',
    ]);
    expect(JSON.stringify(links)).not.toContain(KEY);
  });
});

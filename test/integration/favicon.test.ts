import { startTestApp, type TestApp } from '../helpers/app';
import { openTestDatabase } from '../helpers/database';

describe('the favicon', () => {
  let close: () => Promise<void>;
  let app: TestApp;

  beforeAll(async () => {
    const opened = await openTestDatabase('favicon');
    close = opened.close;
    // Under a base path: browsers still ask the origin's root.
    app = await startTestApp(opened.dataSource, { BASE_PATH: '/quiz' });
  });

  afterAll(async () => {
    await app.close();
    await close();
  });

  it.each(['/favicon.ico', '/favicon.svg'])('%s answers a cacheable SVG icon', async (path) => {
    const response = await fetch(`${app.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(response.headers.get('cache-control')).toMatch(/\bpublic\b.*\bmax-age=[1-9]\d*/);
    const body = await response.text();
    expect(body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>[\s\S]*<\/svg>\n?$/);
  });

  it.each(['/quiz/', '/quiz/keys'])(
    'the page %s links it and its CSP lets it load',
    async (path) => {
      const response = await fetch(`${app.url}${path}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
      expect(response.headers.get('content-security-policy')).toMatch(/(^|; )img-src 'self'(;|$)/);
    },
  );
});

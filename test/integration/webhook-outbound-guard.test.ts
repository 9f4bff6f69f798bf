import net, { type AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from '../../src/config/config';
import { ServiceApiError } from '../../src/errors';
import { checkOutboundUrl, type OutboundPolicy } from '../../src/security/outbound-address';
import { createSecretBox, SecretBoxError } from '../../src/security/secret-box';
import { newWebhookSecret } from '../../src/services/webhooks/webhook-signing';

/**
 * What keeps webhook endpoints safe before any message is sent (contract.md §16): their secrets
 * stored encrypted (WEBHOOK_SECRET_KEY), and the guard of their URLs, which refuses addresses the
 * service must not reach on a user's behalf. A listening socket on loopback stands for what the
 * guard protects: it must see no connection. No database is involved.
 */

let listener: net.Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  listener = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
});

afterAll(() => new Promise((resolve) => listener.close(resolve)));

/** The service's configuration as tests run it: loopback and a test name allowed. */
const testConfig = loadConfig({
  NODE_ENV: 'test',
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1, Webhook.TEST',
});
const allowing: OutboundPolicy = { allowedHosts: testConfig.webhooks.allowedHosts };
/** The default: no host allowed, the system's resolver. */
const strict: OutboundPolicy = { allowedHosts: loadConfig({}).webhooks.allowedHosts };

async function refusal(promise: Promise<unknown>): Promise<ServiceApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ServiceApiError);
  const refused = error as ServiceApiError;
  expect(refused.type).toBe('BadParameterException');
  expect(refused.extras.parameterName).toBe('url');
  return refused;
}

const json = (value: unknown) => JSON.stringify(value);

describe('secret box: endpoint secrets stored encrypted (WEBHOOK_SECRET_KEY)', () => {
  const hexKey = 'a1'.repeat(32);
  const key = loadConfig({ WEBHOOK_SECRET_KEY: hexKey }).webhooks.secretKey;

  it('round trips, with a new IV each time, and holds no trace of the secret', () => {
    const box = createSecretBox(key);
    const secret = newWebhookSecret();
    const sealed = box.seal(secret, 'endpoint:7');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret.slice('whsec_'.length, 20));
    expect(box.seal(secret, 'endpoint:7')).not.toBe(sealed);
    expect(box.open(sealed, 'endpoint:7')).toBe(secret);
  });

  it('a tampered value, the wrong key or another row does not open', () => {
    const box = createSecretBox(key);
    const sealed = box.seal(newWebhookSecret(), 'endpoint:7');
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    const tampered = `v1.${bytes.toString('base64url')}`;
    expect(() => box.open(tampered, 'endpoint:7')).toThrow(SecretBoxError);

    const otherKey = loadConfig({ WEBHOOK_SECRET_KEY: 'b2'.repeat(32) }).webhooks.secretKey;
    expect(() => createSecretBox(otherKey).open(sealed, 'endpoint:7')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'endpoint:8')).toThrow(SecretBoxError);
    expect(() => box.open('not sealed')).toThrow(SecretBoxError);
  });

  it('reads the key as hex or base64; without it, one derived from COOKIE_SECRET, else a fixed development key', () => {
    const fromBase64 = loadConfig({
      WEBHOOK_SECRET_KEY: Buffer.from(hexKey, 'hex').toString('base64'),
    }).webhooks;
    expect(fromBase64.secretKey.equals(key)).toBe(true);
    expect(fromBase64.secretKeySource).toBe('setting');

    // Production needs no new setting: COOKIE_SECRET, which it requires, gives the key.
    const production = (cookie: string) =>
      loadConfig({ NODE_ENV: 'production', COOKIE_SECRET: cookie }).webhooks;
    const derived = production('c'.repeat(32));
    expect(derived.secretKeySource).toBe('cookie-secret');
    expect(derived.secretKey).toHaveLength(32);
    expect(derived.secretKey.equals(Buffer.from('c'.repeat(32)).subarray(0, 32))).toBe(false);
    expect(production('c'.repeat(32)).secretKey.equals(derived.secretKey)).toBe(true);
    expect(production('d'.repeat(32)).secretKey.equals(derived.secretKey)).toBe(false);

    const development = loadConfig({}).webhooks;
    expect(development.secretKeySource).toBe('development');
    expect(development.secretKey).toHaveLength(32);
    // Fixed, so a development database's secrets still open after a restart.
    const sealed = createSecretBox(development.secretKey).seal('whsec_x');
    expect(createSecretBox(loadConfig({}).webhooks.secretKey).open(sealed)).toBe('whsec_x');

    expect(() => loadConfig({ WEBHOOK_SECRET_KEY: 'too-short' })).toThrow(
      'WEBHOOK_SECRET_KEY must be 32 bytes written as 64 hex digits or as base64',
    );
  });
});

describe('outbound address guard', () => {
  it('reads WEBHOOK_ALLOWED_HOSTS as URL host names, and refuses what is not a host', () => {
    expect(testConfig.webhooks.allowedHosts).toEqual(['127.0.0.1', 'webhook.test']);
    expect(
      loadConfig({ WEBHOOK_ALLOWED_HOSTS: '::1, 0x7f.1,receiver.internal' }).webhooks.allowedHosts,
    ).toEqual(['[::1]', '127.0.0.1', 'receiver.internal']);
    expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: 'a.example:8443' })).toThrow(
      'WEBHOOK_ALLOWED_HOSTS must be a comma-separated list of host names or IP addresses',
    );
    expect(() => loadConfig({ WEBHOOK_ALLOWED_HOSTS: 'a.example/path' })).toThrow(ConfigError);
  });

  it.each([
    ['https://127.0.0.1/hook', /is a loopback address/],
    ['https://10.0.0.1:8443/hook', /is a private address/],
    ['https://169.254.169.254/latest/meta-data/', /is the cloud metadata \(link-local\) address/],
    ['https://[::1]/hook', /is the loopback address/],
    ['https://[::ffff:127.0.0.1]/hook', /is a loopback IPv4 \(127\.0\.0\.1, embedded in IPv6\)/],
    ['https://[::ffff:a9fe:a9fe]/', /cloud metadata .*169\.254\.169\.254, embedded in IPv6/],
    ['https://[64:ff9b::a00:1]/', /is a private IPv4 \(10\.0\.0\.1, embedded in IPv6\)/],
    ['https://[::ffff:0:7f00:1]/', /is a loopback IPv4 \(127\.0\.0\.1, embedded in IPv6\)/],
    ['https://[64:ff9b:1::a00:1]/', /is a local-use NAT64 address/],
    ['https://172.20.1.1/', /is a private address/],
    ['https://192.168.1.10/', /is a private address/],
    ['https://100.64.0.1/', /is a shared \(carrier-grade NAT\) address/],
    ['https://0.0.0.0/', /is an unspecified/],
    ['https://224.0.0.1/', /is a multicast address/],
    ['https://255.255.255.255/', /is the broadcast address/],
    ['https://[::]/', /is the unspecified address/],
    ['https://[fe80::1]/', /is a link-local address/],
    ['https://[fd12:3456::1]/', /is a unique-local \(private\) address/],
    ['https://[ff02::1]/', /is a multicast address/],
    ['https://0x7f000001/', /is a loopback address/],
  ])('refuses %s', async (url, reason) => {
    const refused = await refusal(checkOutboundUrl('addWebhook', url, strict));
    expect(refused.reason).toMatch(reason);
    expect(refused.message).toMatch(/^Bad parameter: url \(/);
  });

  it('refuses a name that resolves to loopback (localhost, through the system resolver)', async () => {
    const refused = await refusal(checkOutboundUrl('addWebhook', 'https://localhost:9/', strict));
    expect(refused.reason).toMatch(
      /^names a host that resolves to (127\.0\.0\.1|::1), (a|the) loopback address/,
    );
  });

  it('refuses a name when ANY of its addresses is private, and one that does not resolve', async () => {
    const mixed: OutboundPolicy = {
      allowedHosts: [],
      resolve: () =>
        Promise.resolve([
          { address: '93.184.215.14', family: 4 },
          { address: '10.1.2.3', family: 4 },
        ]),
    };
    const refused = await refusal(checkOutboundUrl('addWebhook', 'https://mixed.example/', mixed));
    expect(refused.reason).toMatch(/resolves to 10\.1\.2\.3, a private address/);

    const nowhere = await refusal(
      checkOutboundUrl('addWebhook', 'https://nowhere.invalid/', strict),
    );
    expect(nowhere.reason).toBe('names a host that does not resolve: nowhere.invalid');
  });

  it('refuses http for a host not allowed, other schemes, credentials and non-URLs', async () => {
    expect(
      (await refusal(checkOutboundUrl('addWebhook', 'http://example.org/', strict))).reason,
    ).toMatch(/^must be an https URL/);
    expect(
      (await refusal(checkOutboundUrl('addWebhook', 'ftp://example.org/', strict))).reason,
    ).toBe('must be an https URL, not ftp');
    expect((await refusal(checkOutboundUrl('addWebhook', 'not a url', strict))).reason).toBe(
      'is not a valid URL',
    );
    const withCredentials = await refusal(
      checkOutboundUrl('addWebhook', 'https://hook:hunter2-password@example.org/in', strict),
    );
    expect(withCredentials.reason).toMatch(/must not hold a user name or password/);
    // The error repeats the URL without its password.
    expect(json(withCredentials.extras)).not.toContain('hunter2');
    expect(withCredentials.extras.providedValue).toBe('https://example.org/in');
  });

  it('refuses the loopback receiver unless its host is allowed, and never connects to check', async () => {
    await refusal(checkOutboundUrl('addWebhook', `http://127.0.0.1:${port}/ok`, strict));
    await refusal(checkOutboundUrl('addWebhook', `https://127.0.0.1:${port}/ok`, strict));
    // A name its resolver points at the receiver: resolved once, refused, never dialled.
    const asked: string[] = [];
    const pointsHome: OutboundPolicy = {
      allowedHosts: [],
      resolve: (hostname) => {
        asked.push(hostname);
        return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
      },
    };
    const home = await refusal(
      checkOutboundUrl('addWebhook', `https://home.example:${port}/ok`, pointsHome),
    );
    expect(home.reason).toMatch(/resolves to 127\.0\.0\.1, a loopback address/);
    expect(asked).toEqual(['home.example']);
    const checked = await checkOutboundUrl('addWebhook', `http://127.0.0.1:${port}/ok`, allowing);
    expect(checked).toMatchObject({
      hostname: '127.0.0.1',
      address: '127.0.0.1',
      family: 4,
      allowedHost: true,
    });
    expect(connections).toBe(0);
  });

  it('accepts public addresses on any port, and returns the address it checked', async () => {
    const publicName: OutboundPolicy = {
      allowedHosts: [],
      resolve: () => Promise.resolve([{ address: '2606:4700:4700::1111', family: 6 }]),
    };
    const byName = await checkOutboundUrl('addWebhook', 'https://hooks.example:8443/x', publicName);
    expect(byName).toMatchObject({
      hostname: 'hooks.example',
      address: '2606:4700:4700::1111',
      family: 6,
      allowedHost: false,
    });
    expect(byName.url.port).toBe('8443');
    const literal = await checkOutboundUrl('addWebhook', 'https://[2001:4860::8888]/', strict);
    expect(literal).toMatchObject({ hostname: '2001:4860::8888', family: 6 });
    const v4 = await checkOutboundUrl('addWebhook', 'https://8.8.8.8/', strict);
    expect(v4).toMatchObject({ address: '8.8.8.8', family: 4 });
  });
});

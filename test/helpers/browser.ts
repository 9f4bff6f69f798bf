import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { User } from '../../src/db/entities';
import { hashPassword } from '../../src/security/password';

/** Debian's Chromium; tests never download a browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Where screenshots go (git-ignored). */
export function testOutputPath(file: string): string {
  const dir = path.resolve(__dirname, '../../test-output');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, file);
}

/** A user who can log in, with a known password stored the way the service stores it. */
export async function createLoginUser(
  dataSource: DataSource,
  email: string,
  password: string | null,
): Promise<User> {
  const users = dataSource.getRepository(User);
  return users.save(
    users.create({
      email,
      passwordHash: password === null ? null : await hashPassword(password),
      firstName: 'Test',
      lastName: email.split('@')[0],
      pictureUrl: null,
    }),
  );
}

// What a browser does with the HTML pages, done with fetch: cookies, hidden fields, form posts.

/** name → value of every cookie a response sets (a cleared cookie has an empty value). */
export function cookiesSet(res: Response): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(';')[0];
    const at = pair.indexOf('=');
    jar[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return jar;
}

/** The raw Set-Cookie line of one cookie. */
export function setCookieLine(res: Response, name: string): string | undefined {
  return res.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

export function cookieHeader(jar: Readonly<Record<string, string>>): string {
  return Object.entries(jar)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('; ');
}

/** The value of a hidden (or any) input of the page, HTML entities decoded. */
export function inputValue(html: string, name: string): string | undefined {
  const match = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html);
  if (!match) return undefined;
  return match[1]
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The text of the page's error box, or undefined. */
export function errorText(html: string): string | undefined {
  return /<p class="error"[^>]*>([^<]*)<\/p>/.exec(html)?.[1];
}

export interface PageVisit {
  res: Response;
  html: string;
  cookies: Record<string, string>;
}

export async function visit(url: string, init: RequestInit = {}): Promise<PageVisit> {
  const res = await fetch(url, { redirect: 'manual', ...init });
  return { res, html: await res.text(), cookies: cookiesSet(res) };
}

/** POSTs a urlencoded form without following redirects. */
export function postForm(
  url: string,
  fields: Readonly<Record<string, string>>,
  headers: Readonly<Record<string, string>> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

export function loginPageUrl(appUrl: string, query: Readonly<Record<string, string>>): string {
  return `${appUrl}/authentication/login.php?${new URLSearchParams(query).toString()}`;
}

export interface PageLogin {
  res: Response;
  location: string | null;
  /** The decoded access token object, when the login redirected. */
  issued?: { token: string; expiresIn: number };
}

/** Opens the login page, then submits it with its CSRF pair, like a browser. */
export async function loginThroughPage(
  appUrl: string,
  apiKey: string,
  redirectURL: string,
  email: string,
  password: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<PageLogin> {
  const url = loginPageUrl(appUrl, { apiKey, redirectURL });
  const page = await visit(url, { headers });
  const csrf = inputValue(page.html, 'csrf');
  if (!csrf) throw new Error(`login page has no form (${page.res.status}): ${page.html}`);
  const res = await postForm(
    url,
    { csrf, apiKey, redirectURL, email, password },
    { ...headers, cookie: cookieHeader(page.cookies) },
  );
  const location = res.headers.get('location');
  const raw = location ? new URL(location).searchParams.get('accessToken') : null;
  const issued = raw ? (JSON.parse(raw) as { token: string; expiresIn: number }) : undefined;
  return { res, location, issued };
}

/** Uncaught exceptions, console errors (CSP refusals among them) and failed responses. */
export function watchPage(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  return problems;
}

/** CSP refusals as the page itself hears of them (securitypolicyviolation events). */
export async function recordCspViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
}

export function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

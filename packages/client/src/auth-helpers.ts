/**
 * The login helpers of spec §5.4, for web pages: the access token that the login page hands back
 * in the URL is kept in localStorage with its expiry. Outside a browser (no localStorage) they
 * find no token and store nothing; Node callers give the token to the client instead.
 */

/** The localStorage entry holding the token. */
export const ACCESS_TOKEN_STORAGE_KEY = 'quizApi.accessToken';

/** Dispatched on `window` whenever these helpers store or wipe the token. */
export const ACCESS_TOKEN_CHANGE_EVENT = 'quizapi:accesstokenchange';

export const LOGIN_PAGE_PATH = '/authentication/login.php';

/** The query parameter the login page adds to redirectURL. */
const ACCESS_TOKEN_PARAM = 'accessToken';

export interface StoredAccessToken {
  token: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** Where the login page is and which API key the token is asked for (a QuizApiClient is one). */
export interface LoginTarget {
  readonly baseUrl: string;
  readonly apiKey: string;
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    // Reading localStorage throws where storage is disabled (some privacy modes, sandboxed frames).
    return undefined;
  }
}

function notifyChange(): void {
  if (typeof window !== 'undefined' && typeof CustomEvent === 'function') {
    window.dispatchEvent(new CustomEvent(ACCESS_TOKEN_CHANGE_EVENT));
  }
}

function parseStored(text: string | null): StoredAccessToken | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<StoredAccessToken>;
    return typeof value.token === 'string' && typeof value.expiresAt === 'number'
      ? { token: value.token, expiresAt: value.expiresAt }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The stored token with its expiry, when one is stored and not expired. */
export function getStoredAccessToken(now = Date.now()): StoredAccessToken | undefined {
  const stored = parseStored(storage()?.getItem(ACCESS_TOKEN_STORAGE_KEY) ?? null);
  return stored && stored.expiresAt > now ? stored : undefined;
}

/** The stored token, or undefined when none is stored or it has expired. */
export function getAccessToken(): string | undefined {
  return getStoredAccessToken()?.token;
}

/** Erases the stored token. */
export function wipeAccessToken(): void {
  storage()?.removeItem(ACCESS_TOKEN_STORAGE_KEY);
  notifyChange();
}

/**
 * The token object of a login redirect (`{"token": …, "expiresIn": …}`, already URL-decoded),
 * as it is stored: the expiry counted from `now`.
 */
export function parseAccessTokenParameter(
  value: string,
  now = Date.now(),
): StoredAccessToken | undefined {
  try {
    const parsed = JSON.parse(value) as { token?: unknown; expiresIn?: unknown };
    if (typeof parsed.token !== 'string' || parsed.token === '') return undefined;
    if (typeof parsed.expiresIn !== 'number' || !(parsed.expiresIn > 0)) return undefined;
    return { token: parsed.token, expiresAt: now + parsed.expiresIn * 1000 };
  } catch {
    return undefined;
  }
}

/**
 * Reads `accessToken` from the current URL, stores it with its expiry, and removes it from the
 * address bar (so it is not bookmarked, shared or sent on as a Referer). Returns what was stored.
 */
export function storeAccessTokenFromUrl(): StoredAccessToken | undefined {
  if (typeof location === 'undefined') return undefined;
  const url = new URL(location.href);
  const value = url.searchParams.get(ACCESS_TOKEN_PARAM);
  if (value === null) return undefined;
  const stored = parseAccessTokenParameter(value);
  if (stored) storage()?.setItem(ACCESS_TOKEN_STORAGE_KEY, JSON.stringify(stored));
  // Removed even when unreadable: whatever it is, it should not stay in the address bar.
  url.searchParams.delete(ACCESS_TOKEN_PARAM);
  if (typeof history !== 'undefined') history.replaceState(history.state, '', url.href);
  if (stored) notifyChange();
  return stored;
}

/** The login page URL that sends the browser back to `redirectURL` (without an old token). */
export function loginPageUrl(target: LoginTarget, redirectURL: string): string {
  const back = new URL(redirectURL);
  back.searchParams.delete(ACCESS_TOKEN_PARAM);
  const query = new URLSearchParams({ apiKey: target.apiKey, redirectURL: back.href });
  return `${target.baseUrl.replace(/\/+$/, '')}${LOGIN_PAGE_PATH}?${query.toString()}`;
}

/** Sends the browser to the login page; it comes back to `redirectURL` (default: this page). */
export function authenticate(target: LoginTarget, redirectURL?: string): void {
  location.assign(loginPageUrl(target, redirectURL ?? location.href));
}

export interface LoginButtonOptions {
  loginLabel?: string;
  logoutLabel?: string;
  /** Where the login page sends the browser back (default: the page of the button). */
  redirectURL?: string;
  /** Called with the token's presence once when bound, then on each change (login, logout, expiry). */
  onChange?: (loggedIn: boolean) => void;
}

export interface LoginButton {
  /** Re-reads the token and updates the label. */
  refresh(): void;
  /** Unbinds the button. */
  dispose(): void;
}

/** setTimeout takes at most 2^31-1 ms; a longer wait is done in steps. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Binds a button that logs in (authenticate) when no valid token is stored and logs out
 * (wipeAccessToken) when one is. Its label follows the token: on a click, on a change by these
 * helpers or in another tab, and when the token expires.
 */
export function setLoginButton(
  elementId: string,
  target: LoginTarget,
  options: LoginButtonOptions = {},
): LoginButton {
  const button = document.getElementById(elementId);
  if (!button) throw new Error(`setLoginButton: no element with id "${elementId}"`);
  const loginLabel = options.loginLabel ?? 'Log in';
  const logoutLabel = options.logoutLabel ?? 'Log out';
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;
  let shownLoggedIn: boolean | undefined;

  const refresh = (): void => {
    const stored = getStoredAccessToken();
    const loggedIn = stored !== undefined;
    button.textContent = loggedIn ? logoutLabel : loginLabel;
    button.dataset.loggedIn = String(loggedIn);
    if (expiryTimer !== undefined) clearTimeout(expiryTimer);
    expiryTimer = stored
      ? setTimeout(refresh, Math.min(MAX_TIMER_MS, stored.expiresAt - Date.now() + 50))
      : undefined;
    if (loggedIn !== shownLoggedIn) {
      shownLoggedIn = loggedIn;
      options.onChange?.(loggedIn);
    }
  };

  const onClick = (event: Event): void => {
    event.preventDefault();
    if (getAccessToken() === undefined) authenticate(target, options.redirectURL);
    else wipeAccessToken();
  };

  const onStorage = (event: StorageEvent): void => {
    if (event.key === null || event.key === ACCESS_TOKEN_STORAGE_KEY) refresh();
  };

  button.addEventListener('click', onClick);
  window.addEventListener(ACCESS_TOKEN_CHANGE_EVENT, refresh);
  window.addEventListener('storage', onStorage);
  refresh();

  return {
    refresh,
    dispose: () => {
      if (expiryTimer !== undefined) clearTimeout(expiryTimer);
      button.removeEventListener('click', onClick);
      window.removeEventListener(ACCESS_TOKEN_CHANGE_EVENT, refresh);
      window.removeEventListener('storage', onStorage);
    },
  };
}

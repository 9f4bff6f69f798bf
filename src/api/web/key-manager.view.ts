import type { ApiKey } from '../../services/api-keys/api-key.service';
import { CSRF_FIELD } from './csrf';
import { errorBox, escapeHtml, renderPage } from './html';
import { WEBHOOK_STYLE, webhooksSection, type WebhookOverview } from './key-manager.webhooks';

const TITLE = 'API keys';

/** Where the key manager serves the copy button's script, under its root. */
export const COPY_SCRIPT_FILE = 'copy-button.js';

/** What every logged-in key manager page shows in its header. */
export interface KeyManagerFrame {
  /** Path of the key manager ({basePath}/keys). */
  root: string;
  email: string;
  csrfToken: string;
}

export interface KeyManagerView extends KeyManagerFrame {
  keys: readonly ApiKey[];
  error?: string;
  notice?: string;
  /** The key just created: shown this once. */
  created?: { secret: string; apiKey: ApiKey };
  /** Values to put back in the create form after an error. */
  form?: { host?: string; label?: string };
  /** The user's webhook endpoints and their recent deliveries. */
  webhooks?: readonly WebhookOverview[];
}

const STYLE = `
.secret-line { display: flex; gap: .5rem; align-items: stretch; }
.secret-line code.secret { flex: 1; user-select: all; }
button.copy { margin-top: 0; white-space: nowrap; }
button.copy.copied { background: #1e7a3c; }
a.button { display: inline-block; padding: .3rem .9rem; border-radius: 4px; color: #fff;
  text-decoration: none; font-size: .9rem; }
a.button.danger { background: #b3261e; }
button:focus-visible, a:focus-visible { outline: 3px solid #f2b705; outline-offset: 2px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
.actions { display: flex; gap: 1.5rem; align-items: center; margin-top: 1.5rem; }
.actions button { margin-top: 0; }
.muted { color: #5b606b; font-size: .9rem; }
a { color: #2456c7; }
`;

function when(date: Date | null): string {
  return date ? `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC` : 'never';
}

function csrfField(token: string): string {
  return `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(token)}">`;
}

/** How a key is named on the pages: its first characters, never the whole secret. */
export function keyName(key: ApiKey): string {
  return `${key.keyPrefix}…`;
}

/** Where a key's delete confirmation lives (GET) and where its forms post (POST). */
export function deletePath(root: string, keyId: number): string {
  return `${root}/${keyId}/delete`;
}

function keyRow(view: KeyManagerView, key: ApiKey): string {
  return `<tr data-key-id="${key.id}">
<td><code class="prefix">${escapeHtml(keyName(key))}</code></td>
<td class="host">${escapeHtml(key.host)}</td>
<td class="label">${escapeHtml(key.label)}</td>
<td>${escapeHtml(when(key.createdAt))}</td>
<td>${escapeHtml(when(key.lastUsedAt))}</td>
<td><a class="button danger delete" href="${escapeHtml(deletePath(view.root, key.id))}" aria-label="Delete key ${escapeHtml(keyName(key))}">Delete…</a></td>
</tr>`;
}

function createdBox(created: NonNullable<KeyManagerView['created']>): string {
  return `<section class="notice" id="created" aria-labelledby="created-title">
<h2 id="created-title">New key for ${escapeHtml(created.apiKey.host)}</h2>
<p>Copy it now: it is shown only this once. The service keeps only a hash of it.</p>
<div class="secret-line">
<code class="secret" id="new-key">${escapeHtml(created.secret)}</code>
<button type="button" class="copy" id="copy-new-key" data-copy-target="new-key" hidden>Copy</button>
</div>
<p class="muted" id="new-key-copy-status" role="status" aria-live="polite"></p>
</section>`;
}

function header(frame: KeyManagerFrame, title: string): string {
  return `<header><h1>${escapeHtml(title)}</h1>
<form method="post" action="${escapeHtml(`${frame.root}/logout`)}">
${csrfField(frame.csrfToken)}
<span>${escapeHtml(frame.email)}</span> <button type="submit" class="link" id="logout">Log out</button>
</form></header>`;
}

/** The list of the user's active keys, the create form and the log-out button. */
export function keyManagerPage(view: KeyManagerView): string {
  const rows = view.keys.map((key) => keyRow(view, key)).join('\n');
  const table =
    view.keys.length === 0
      ? '<p id="no-keys">You have no active API keys.</p>'
      : `<table id="keys">
<thead><tr><th>Key</th><th>Host</th><th>Label</th><th>Created</th><th>Last used</th><th><span class="muted">Action</span></th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
  return renderPage(
    TITLE,
    `${header(view, TITLE)}
${view.error ? errorBox(view.error) : ''}
${view.notice ? `<p class="notice" role="status" id="notice">${escapeHtml(view.notice)}</p>` : ''}
${view.created ? createdBox(view.created) : ''}
<h2>Create a key</h2>
<form method="post" action="${escapeHtml(`${view.root}/create`)}" id="create-form">
${csrfField(view.csrfToken)}
<label for="host">Host (domain name or IP address the key will be used from)</label>
<input type="text" id="host" name="host" required maxlength="253" value="${escapeHtml(view.form?.host ?? '')}">
<label for="label">Label (optional)</label>
<input type="text" id="label" name="label" maxlength="100" value="${escapeHtml(view.form?.label ?? '')}">
<button type="submit" id="create-submit">Create key</button>
</form>
<h2>Your keys</h2>
<p class="muted">A key is shown in full only once, right after it is created; the list shows its first characters.</p>
${table}
${webhooksSection(view.webhooks ?? [])}`,
    {
      style: `${STYLE}${WEBHOOK_STYLE}`,
      scripts: view.created ? [`${view.root}/${COPY_SCRIPT_FILE}`] : [],
    },
  );
}

/**
 * The confirmation step before a key is deleted: a page of its own, so it works without
 * JavaScript. Focus starts on "Cancel", so a stray Enter keeps the key.
 */
export function deleteConfirmPage(frame: KeyManagerFrame, key: ApiKey): string {
  const title = 'Delete this API key?';
  const label = key.label ? escapeHtml(key.label) : '<span class="muted">(none)</span>';
  return renderPage(
    title,
    `${header(frame, title)}
<dl class="facts" id="key-facts">
<dt>Key</dt><dd><code class="prefix">${escapeHtml(keyName(key))}</code></dd>
<dt>Host</dt><dd class="host">${escapeHtml(key.host)}</dd>
<dt>Label</dt><dd class="label">${label}</dd>
<dt>Created</dt><dd>${escapeHtml(when(key.createdAt))}</dd>
<dt>Last used</dt><dd>${escapeHtml(when(key.lastUsedAt))}</dd>
</dl>
<p>Every page and app that uses this key is refused from the moment it is deleted. This cannot be undone.</p>
<form method="post" action="${escapeHtml(deletePath(frame.root, key.id))}" id="confirm-delete-form" class="actions">
${csrfField(frame.csrfToken)}
<input type="hidden" name="confirm" value="yes">
<button type="submit" class="danger" id="confirm-delete">Yes, delete key ${escapeHtml(keyName(key))}</button>
<a href="${escapeHtml(frame.root)}" id="cancel-delete" autofocus>Cancel, keep the key</a>
</form>`,
    { style: STYLE },
  );
}

import type { ApiKey } from '../../db/entities';
import { CSRF_FIELD } from './csrf';
import { errorBox, escapeHtml, renderPage } from './html';

const TITLE = 'API keys';

export interface KeyManagerView {
  /** Path of the key manager ({basePath}/keys). */
  root: string;
  email: string;
  csrfToken: string;
  keys: readonly ApiKey[];
  error?: string;
  notice?: string;
  /** The key just created: shown this once. */
  created?: { secret: string; apiKey: ApiKey };
  /** Values to put back in the create form after an error. */
  form?: { host?: string; label?: string };
}

function when(date: Date | null): string {
  return date ? `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC` : 'never';
}

function csrfField(token: string): string {
  return `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(token)}">`;
}

function keyRow(view: KeyManagerView, key: ApiKey): string {
  return `<tr data-key-id="${key.id}">
<td><code class="prefix">${escapeHtml(key.keyPrefix)}…</code></td>
<td class="host">${escapeHtml(key.host)}</td>
<td class="label">${escapeHtml(key.label)}</td>
<td>${escapeHtml(when(key.createdAt))}</td>
<td>${escapeHtml(when(key.lastUsedAt))}</td>
<td><form method="post" action="${escapeHtml(`${view.root}/${key.id}/delete`)}">
${csrfField(view.csrfToken)}
<button type="submit" class="danger" aria-label="Delete key ${escapeHtml(key.keyPrefix)}">Delete</button>
</form></td>
</tr>`;
}

function createdBox(created: NonNullable<KeyManagerView['created']>): string {
  return `<section class="notice" id="created">
<p>Your new key for <strong>${escapeHtml(created.apiKey.host)}</strong>. Copy it now: it is shown only once.</p>
<code class="secret" id="new-key">${escapeHtml(created.secret)}</code>
</section>`;
}

/** The list of the user's active keys, the create form and the log-out button. */
export function keyManagerPage(view: KeyManagerView): string {
  const rows = view.keys.map((key) => keyRow(view, key)).join('\n');
  const table =
    view.keys.length === 0
      ? '<p id="no-keys">You have no active API keys.</p>'
      : `<table id="keys">
<thead><tr><th>Key</th><th>Host</th><th>Label</th><th>Created</th><th>Last used</th><th></th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
  return renderPage(
    TITLE,
    `<header><h1>${TITLE}</h1>
<form method="post" action="${escapeHtml(`${view.root}/logout`)}">
${csrfField(view.csrfToken)}
<span>${escapeHtml(view.email)}</span> <button type="submit" class="link" id="logout">Log out</button>
</form></header>
${view.error ? errorBox(view.error) : ''}
${view.notice ? `<p class="notice" role="status">${escapeHtml(view.notice)}</p>` : ''}
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
${table}`,
  );
}

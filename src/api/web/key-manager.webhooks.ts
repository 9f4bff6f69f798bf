import type { RequestContext } from '../../context/request-context';
import {
  getWebhookDeliveries,
  getWebhooks,
} from '../../services/webhooks/webhook-endpoint.service';
import type { WebhookDeliveryView, WebhookView } from '../../services/webhooks/webhook.views';
import { escapeHtml } from './html';

/**
 * The key manager's webhook section (contract.md §16): the signed-in user's endpoints, whether
 * each still receives events (and why not), and its recent deliveries. Read-only: endpoints are
 * managed through the API (addWebhook, deleteWebhook, enableWebhook...), where the secret is shown.
 */

/** Deliveries shown per endpoint. */
export const DELIVERIES_SHOWN = 5;

export interface WebhookOverview {
  webhook: WebhookView;
  deliveries: readonly WebhookDeliveryView[];
}

/** The user's endpoints with their recent deliveries, through the services. */
export async function webhookOverviews(ctx: RequestContext): Promise<WebhookOverview[]> {
  const { webhooks } = await getWebhooks(ctx);
  return Promise.all(
    webhooks.map(async (webhook) => ({
      webhook,
      deliveries: (await getWebhookDeliveries(ctx, webhook.id, DELIVERIES_SHOWN)).deliveries,
    })),
  );
}

export const WEBHOOK_STYLE = `
.webhook { border: 1px solid #e1e3e8; border-radius: 6px; padding: .75rem 1rem; margin-top: 1rem; }
.webhook .url { word-break: break-all; }
.state.enabled { color: #1e7a3c; font-weight: 600; }
.state.disabled { color: #8a1c14; font-weight: 600; }
`;

const when = (date: Date | null): string =>
  date ? `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC` : '';

function state(webhook: WebhookView): string {
  if (!webhook.enabled) {
    const reason = webhook.disabledReason ? `: ${webhook.disabledReason}` : '';
    return `<span class="state disabled">Disabled since ${escapeHtml(when(webhook.disabledAt))}${escapeHtml(reason)}</span>`;
  }
  const failing = webhook.failingSince
    ? ` <span class="muted">(failing since ${escapeHtml(when(webhook.failingSince))})</span>`
    : '';
  return `<span class="state enabled">Enabled</span>${failing}`;
}

/** What the last attempt got: the receiver's status, else the service's reason. */
function lastOutcome(delivery: WebhookDeliveryView): string {
  const last = delivery.attemptList[delivery.attemptList.length - 1];
  if (!last) return '—';
  return last.statusCode === null ? (last.error ?? last.outcome) : `HTTP ${last.statusCode}`;
}

function deliveryRow(delivery: WebhookDeliveryView): string {
  return `<tr data-delivery-id="${delivery.id}">
<td>${escapeHtml(when(delivery.createdAt))}</td>
<td class="event-type">${escapeHtml(delivery.eventType)}</td>
<td class="status">${escapeHtml(delivery.status)}</td>
<td class="attempts">${delivery.attempts}</td>
<td class="last">${escapeHtml(lastOutcome(delivery))}</td>
</tr>`;
}

function webhookBlock({ webhook, deliveries }: WebhookOverview): string {
  const table =
    deliveries.length === 0
      ? '<p class="muted no-deliveries">No deliveries yet.</p>'
      : `<table class="deliveries">
<thead><tr><th>Event time</th><th>Event</th><th>Status</th><th>Attempts</th><th>Last answer</th></tr></thead>
<tbody>
${deliveries.map(deliveryRow).join('\n')}
</tbody>
</table>`;
  return `<section class="webhook" data-webhook-id="${webhook.id}">
<p><code class="url">${escapeHtml(webhook.url)}</code></p>
<p>${state(webhook)}</p>
<p class="events muted">Events: ${escapeHtml(webhook.events.join(', '))}</p>
${table}
</section>`;
}

/** The section of the list page. */
export function webhooksSection(overviews: readonly WebhookOverview[]): string {
  const intro =
    '<p class="muted">Endpoints that receive signed events (session.created, answers.recorded, quiz.created, user.erased). They are added, deleted and re-enabled through the API (addWebhook, deleteWebhook, enableWebhook), which shows each secret once.</p>';
  const body =
    overviews.length === 0
      ? '<p id="no-webhooks">You have no webhook endpoints.</p>'
      : `<div id="webhooks">\n${overviews.map(webhookBlock).join('\n')}\n</div>`;
  return `<h2 id="webhooks-title">Your webhooks</h2>\n${intro}\n${body}`;
}

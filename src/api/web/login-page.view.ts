import { holdsSecret } from '../../observability/secret-shapes';
import { CSRF_FIELD } from './csrf';
import { errorBox, escapeHtml, renderPage } from './html';

export interface LoginFormView {
  /** Where the form posts: the page itself, with its query. */
  action: string;
  csrfToken: string;
  email?: string;
  error?: string;
  /** Hidden fields carried along (apiKey, redirectURL). */
  hidden?: Readonly<Record<string, string>>;
  title: string;
  intro?: string;
}

/** What was typed as the email, given back in the form unless it is a secret pasted there. */
function shownEmail(email: string | undefined): string {
  return email === undefined || holdsSecret(email) ? '' : email;
}

function hiddenField(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

/** The email and password form, shared by the login page and the key manager. */
export function loginFormPage(view: LoginFormView): string {
  const hidden = Object.entries(view.hidden ?? {})
    .map(([name, value]) => hiddenField(name, value))
    .join('\n');
  return renderPage(
    view.title,
    `<h1>${escapeHtml(view.title)}</h1>
${view.intro ? `<p>${escapeHtml(view.intro)}</p>` : ''}
${view.error ? errorBox(view.error) : ''}
<form method="post" action="${escapeHtml(view.action)}" id="login-form">
${hiddenField(CSRF_FIELD, view.csrfToken)}
${hidden}
<label for="email">Email</label>
<input type="email" id="email" name="email" autocomplete="username" required maxlength="254" value="${escapeHtml(shownEmail(view.email))}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required maxlength="1024">
<button type="submit" id="login-submit">Log in</button>
</form>`,
  );
}

/** A page that only reports a problem: no form, nothing to submit. */
export function messagePage(title: string, message: string): string {
  return renderPage(title, `<h1>${escapeHtml(title)}</h1>\n${errorBox(message)}`);
}

import type { ServiceApiError } from '../../errors';
import { shownValue } from './html';

/** The sentence an HTML page shows for a refused login (rate limit or wrong identifiers). */
export function loginFailureMessage(error: ServiceApiError): string {
  if (error.kind === 'tooManyRequests') {
    const minutes = Math.max(1, Math.ceil((error.extras.retryAfterSeconds ?? 60) / 60));
    return `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  }
  // One sentence for an unknown email, a wrong password and an account without password alike.
  return 'The email or password is incorrect.';
}

/** Text of a service error for a page: the reason, as a sentence, with the offending value shortened. */
export function errorSentence(error: ServiceApiError): string {
  if (error.kind === 'missingParameter') {
    return `The ${error.extras.parameterName ?? 'required'} parameter is missing.`;
  }
  const { parameterName } = error.extras;
  // Service reasons such as "must be a domain name" read as a sentence once the field is named.
  const sentence =
    parameterName && error.reason.startsWith('must ')
      ? `the ${parameterName} ${error.reason}`
      : error.reason;
  const reason = sentence.charAt(0).toUpperCase() + sentence.slice(1);
  // Secrets given twice are not mirrored back into the page.
  const secret = ['apiKey', 'password', 'csrf'].includes(parameterName ?? '');
  const value = secret ? undefined : error.extras.providedValue;
  return value === undefined || value === ''
    ? `${reason}.`
    : `${reason} (got “${shownValue(value)}”).`;
}

export const CSRF_FAILED_MESSAGE =
  'This form has expired or was not sent from this page. Please try again.';

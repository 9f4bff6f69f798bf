import type { IncomingMessage } from 'node:http';
import { isCredentialName } from '../../observability/secret-shapes';
import { OPERATION_CATALOG } from '../operations/operation-catalog';
import { visiblePath } from './wire';

/**
 * The request of a request's log line (contract.md §14.7): its path and its parameters by name,
 * with the values only of parameters that can hold nothing but an identifier or an enum
 * (quizId=3, resultTypes=min,max). Free text (keywords, search, titles, a redirect URL), JSON
 * and credentials are `[REDACTED]`, so no name, email, answer or secret reaches the line.
 */

export interface LoggedRequest {
  id: unknown;
  method: string | undefined;
  /** The visible path and its parameters, as `/getQuizSet?apiKey=[REDACTED]&pageIndex=2`. */
  url: string;
  remoteAddress: string | undefined;
}

const HIDDEN = '[REDACTED]';
/** Longest value shown: the longest list of enum names fits. */
const MAX_SHOWN_VALUE = 200;
/** A parameter name as the service's own are spelled; any other is not repeated either. */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/** Whether a value may be shown: only when the schema admits identifiers or enum names alone. */
type ValueTest = (value: string) => boolean;

function valueTestOf(schema: Readonly<Record<string, unknown>>): ValueTest | undefined {
  // A list (resultTypes, sessionIds) travels comma-separated: each of its values is tested.
  if (schema.type === 'array' && typeof schema.items === 'object' && schema.items !== null) {
    const item = valueTestOf(schema.items as Readonly<Record<string, unknown>>);
    return item && ((value) => value.split(',').every(item));
  }
  if (Array.isArray(schema.enum)) {
    const names = new Set(schema.enum.map(String));
    return (value) => names.has(value);
  }
  if (typeof schema.pattern !== 'string' || schema.type !== 'string') return undefined;
  const pattern = new RegExp(schema.pattern);
  return (value) => pattern.test(value);
}

/**
 * Parameters of the catalog whose every definition is an identifier or an enum, with the test
 * a value must pass to be shown; a parameter that is text anywhere is never shown.
 */
function shownParameters(): Map<string, ValueTest> {
  const tests = new Map<string, ValueTest[]>();
  const text = new Set<string>();
  for (const operation of OPERATION_CATALOG) {
    for (const parameter of operation.parameters) {
      // JSON parameters (a quiz, answers) are never shown, whatever their schema says.
      const test = parameter.rest === 'text' ? valueTestOf(parameter.schema) : undefined;
      if (!test) text.add(parameter.name);
      else tests.set(parameter.name, [...(tests.get(parameter.name) ?? []), test]);
    }
  }
  const shown = new Map<string, ValueTest>();
  for (const [name, all] of tests) {
    if (!text.has(name)) shown.set(name, (value) => all.every((test) => test(value)));
  }
  return shown;
}

let shown: Map<string, ValueTest> | undefined;

function pairOf(name: string, value: string): string {
  if (!PLAIN_NAME.test(name)) return HIDDEN;
  if (value === '') return `${name}=`;
  shown ??= shownParameters();
  const test = shown.get(name);
  const visible = !isCredentialName(name) && test && value.length <= MAX_SHOWN_VALUE && test(value);
  return `${name}=${visible ? value : HIDDEN}`;
}

/** The query string with names kept and only identifier values shown. */
export function loggedQuery(query: string): string {
  const pairs: string[] = [];
  for (const [name, value] of new URLSearchParams(query)) pairs.push(pairOf(name, value));
  return pairs.join('&');
}

/** The URL of a log line: visible path, then the parameters as loggedQuery shows them. */
export function loggedUrl(url: string): string {
  const mark = url.indexOf('?');
  const path = visiblePath(mark < 0 ? url : url.slice(0, mark));
  const query = mark < 0 ? '' : loggedQuery(url.slice(mark + 1));
  return query === '' ? path : `${path}?${query}`;
}

/** The `req` of a request's log line. */
export function loggedRequest(
  req: IncomingMessage & { id?: unknown; originalUrl?: string },
  remoteAddress = req.socket?.remoteAddress,
): LoggedRequest {
  return {
    id: req.id,
    method: req.method,
    url: loggedUrl(req.originalUrl ?? req.url ?? '/'),
    remoteAddress,
  };
}

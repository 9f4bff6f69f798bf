/**
 * RFC 4180 text: fields separated by commas, records ended by CRLF, a field quoted when it holds
 * a comma, a quote, CR or LF, its quotes doubled. Values become fields by `csvField`.
 */

/** The byte-order mark spreadsheet programs need to read UTF-8 (accents) as such. */
export const UTF8_BOM = '\uFEFF';

const NEEDS_QUOTES = /[",\r\n]/;

export function csvQuote(field: string): string {
  return NEEDS_QUOTES.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}

/** One record, CRLF included. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.map(csvQuote).join(',')}\r\n`;
}

/**
 * A JSON value as a field: absent and null are empty, text as is, numbers and booleans as JSON
 * writes them, arrays and objects as their JSON text.
 */
export function csvField(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The value at a dotted path (`author.id`) of a JSON object, undefined where absent. */
export function valueAt(item: Readonly<Record<string, unknown>>, path: readonly string[]): unknown {
  let value: unknown = item;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

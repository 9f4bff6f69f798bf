/**
 * A strict RFC 4180 reader for the export tests: records end with CRLF (the last one too),
 * fields are separated by commas, a quoted field doubles its quotes and may hold commas, CR and
 * LF; outside quotes none of `"`, CR, LF may appear. Anything else throws.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`not RFC 4180 at ${at}: ${why}: ${JSON.stringify(text.slice(at, at + 20))}`);
  };
  while (at < text.length) {
    let field = '';
    if (text[at] === '"') {
      at += 1;
      for (;;) {
        const quote = text.indexOf('"', at);
        if (quote < 0) fail('a quoted field without its closing quote');
        field += text.slice(at, quote);
        at = quote + 1;
        if (text[at] !== '"') break;
        field += '"';
        at += 1;
      }
    } else {
      const end = text.slice(at).search(/[,\r\n"]/);
      field = end < 0 ? text.slice(at) : text.slice(at, at + end);
      at = end < 0 ? text.length : at + end;
      if (text[at] === '"') fail('a quote in an unquoted field');
    }
    fields.push(field);
    if (text[at] === ',') {
      at += 1;
    } else if (text.startsWith('\r\n', at)) {
      at += 2;
      records.push(fields);
      fields = [];
    } else {
      fail('a field not followed by a comma or CRLF');
    }
  }
  if (fields.length > 0) fail('a last record without its CRLF');
  return records;
}

/** The value at a dotted path of a JSON object, undefined where absent. */
function valueAt(item: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) =>
        value !== null && typeof value === 'object'
          ? (value as Record<string, unknown>)[key]
          : undefined,
      item,
    );
}

/**
 * The CSV records the export promises for JSON items: absent and null fields empty, text as
 * is, numbers and booleans as JSON writes them, arrays and objects as their JSON text.
 */
export function expectedRecords(
  items: readonly Record<string, unknown>[],
  columns: readonly string[],
): string[][] {
  return items.map((item) =>
    columns.map((column) => {
      const value = valueAt(item, column);
      if (value === undefined || value === null) return '';
      if (typeof value === 'string') return value;
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    }),
  );
}

import { Readable } from 'node:stream';
import type { QueryRunner } from 'typeorm';
import type { SqlValue } from './row-writer';

/** Bytes of rows per chunk of the stream: each chunk is one protocol packet (at most 16 MB). */
const CHUNK_BYTES = 256 * 1024;
/** Bytes the socket may hold unsent before the stream waits for it to drain. */
const MAX_UNSENT_BYTES = 8 * 1024 * 1024;

/** The callback API of the mysql2 connection TypeORM's query runner holds. */
interface InfileConnection {
  stream: NodeJS.WritableStream & { writableLength: number; writableNeedDrain: boolean };
  query(
    options: { sql: string; infileStreamFactory: () => Readable },
    callback: (
      error: Error | null,
      result?: { affectedRows: number; warningStatus: number },
    ) => void,
  ): void;
}

const ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\0': '\\0',
};

/** A value as a field of LOAD DATA's default format: tab-separated, backslash-escaped, \N for NULL. */
function field(value: SqlValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  // The same UTC text mysql2 sends for a Date parameter (the connections use timezone 'Z').
  if (value instanceof Date) return value.toISOString().slice(0, 23).replace('T', ' ');
  return value.replace(/[\\\t\n\r\0]/g, (char) => ESCAPES[char] as string);
}

/**
 * Writes rows into an EMPTY table of MariaDB/MySQL as one LOAD DATA LOCAL INFILE statement whose
 * file is a stream made as the server reads it: with unique and foreign-key checks off, InnoDB
 * loads it in bulk (each index sorted once) while this process validates the next rows. The rows
 * are made by `rows` (which may throw: the statement then ends, the error is rethrown and the
 * caller rolls back). LOCAL turns data errors into warnings, so a load with any warning, or with
 * fewer rows than were sent, is refused. Returns the number of rows written.
 */
export async function loadInfile(
  runner: QueryRunner,
  table: string,
  columns: readonly string[],
  rows: Iterator<readonly SqlValue[]>,
  /** After each chunk; `ended` once the last row is sent (the server still writes the indexes). */
  onProgress?: (sent: number, ended: boolean) => void,
): Promise<number> {
  const connection = (await runner.connect()) as InfileConnection;
  const socket = connection.stream;
  let sent = 0;
  // Pushes the next chunk (or the end); a thrown validation error ends the statement.
  const produce = (): void => {
    try {
      let text = '';
      let next = rows.next();
      while (!next.done) {
        text += `${next.value.map(field).join('\t')}\n`;
        sent += 1;
        if (text.length >= CHUNK_BYTES) break;
        next = rows.next();
      }
      if (text) stream.push(Buffer.from(text, 'utf8'));
      onProgress?.(sent, false);
      if (next.done) {
        stream.push(null);
        onProgress?.(sent, true);
      }
    } catch (error) {
      stream.destroy(error as Error);
    }
  };
  const stream = new Readable({
    read() {
      // The driver writes every chunk to the socket at once: wait while the server lags behind.
      if (socket.writableNeedDrain && socket.writableLength > MAX_UNSENT_BYTES) {
        socket.once('drain', produce);
      } else {
        produce();
      }
    },
  });
  const sql =
    `LOAD DATA LOCAL INFILE '${table}.tsv' INTO TABLE \`${table}\` CHARACTER SET utf8mb4 ` +
    `FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' ` +
    `(${columns.map((column) => `\`${column}\``).join(',')})`;
  const result = await new Promise<{ affectedRows: number; warningStatus: number }>(
    (resolve, reject) =>
      connection.query({ sql, infileStreamFactory: () => stream }, (error, header) =>
        error || !header ? reject(error ?? new Error('LOAD DATA gave no result')) : resolve(header),
      ),
  );
  if (result.warningStatus > 0 || result.affectedRows !== sent) {
    const warnings = (await runner.query('SHOW WARNINGS LIMIT 3')) as { Message: string }[];
    throw new Error(
      `LOAD DATA into ${table} wrote ${result.affectedRows} of ${sent} rows with ${result.warningStatus} warnings: ${warnings.map((w) => w.Message).join('; ')}`,
    );
  }
  return sent;
}

import { exceptionFromResponse, TransportException } from './errors';
import type { DataSetItem, DataSetItemType, DataSetRef } from './types';

/**
 * exportDataSet (contract.md §13): a whole set as one file the service streams. The client
 * hands the file over as it arrives: the raw body (to save it), its text, or, for NDJSON, its
 * items one by one, parsed like getDataSetPage's; never the whole set at once unless asked.
 */

export type ExportFormat = 'csv' | 'ndjson';

export interface ExportDataSetParams<F extends ExportFormat = ExportFormat> {
  dataSetId: DataSetRef;
  format: F;
}

/** The file of an export; its body is read once, by `body`, `text()` or `items()`. */
export interface DataSetFile {
  readonly format: ExportFormat;
  /** `<itemType>-<dataSetId>.csv` or `.ndjson`; undefined when a proxy hid Content-Disposition. */
  readonly fileName: string | undefined;
  readonly itemType: DataSetItemType | undefined;
  /**
   * The bytes as they arrive: in Node `Readable.fromWeb(file.body).pipe(…)`, in a browser
   * `new Response(file.body).blob()`. A file cut short by the service errors the stream.
   */
  readonly body: ReadableStream<Uint8Array>;
  /** The whole file as text (CSV without its byte-order mark). */
  text(): Promise<string>;
}

/** An NDJSON file, also read item by item: `for await (const item of file)`. */
export interface NdjsonDataSetFile<T extends DataSetItem = DataSetItem>
  extends DataSetFile, AsyncIterable<T> {
  /** The items in set order, each parsed as it arrives (datetimes as Date, as on pages). */
  items(): AsyncGenerator<T, void, undefined>;
}

export type DataSetExport<F extends ExportFormat = ExportFormat> = F extends 'ndjson'
  ? NdjsonDataSetFile
  : DataSetFile;

/** How the client parses an item of a page (quizzes' datetimes). */
export type ItemParser = (itemType: DataSetItemType, item: never) => DataSetItem;

const OPERATION = 'exportDataSet';
const ITEM_TYPES: readonly string[] = ['user', 'quiz', 'userGroup', 'computedResult'];

function cutShort(error: unknown): TransportException {
  return new TransportException(
    OPERATION,
    `${OPERATION}: the file was cut short (the service failed or the connection dropped)`,
    undefined,
    error,
  );
}

/** The text of the body, chunk by chunk, as UTF-8 (a leading byte-order mark dropped). */
async function* decoded(body: ReadableStream<Uint8Array>): AsyncGenerator<string, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let finished = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        finished = true;
        throw cutShort(error);
      }
      if (chunk.done) break;
      yield decoder.decode(chunk.value, { stream: true });
    }
    finished = true;
    const rest = decoder.decode();
    if (rest !== '') yield rest;
  } finally {
    // A reader that stopped early stops the download too.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string, void, undefined> {
  let rest = '';
  for await (const text of decoded(body)) {
    const parts = (rest + text).split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts) if (line.trim() !== '') yield line;
  }
  if (rest.trim() !== '') yield rest;
}

/** The name and item type Content-Disposition gives (`attachment; filename="quiz-12.ndjson"`). */
function fileOf(response: Response): { fileName?: string; itemType?: DataSetItemType } {
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]*)"/.exec(disposition)?.[1];
  const itemType = fileName?.replace(/-[0-9]+\.[a-z]+$/, '');
  return {
    fileName,
    itemType: itemType && ITEM_TYPES.includes(itemType) ? (itemType as DataSetItemType) : undefined,
  };
}

/**
 * Sends the request and, once the file starts, hands it over; an error answer before it is
 * thrown as the contract's exception, like any operation's.
 */
export async function openDataSetExport<F extends ExportFormat>(
  fetchFile: () => Promise<Response>,
  params: ExportDataSetParams<F>,
  parseItem: ItemParser,
): Promise<DataSetExport<F>> {
  let response: Response;
  try {
    response = await fetchFile();
  } catch (error) {
    throw new TransportException(
      OPERATION,
      `${OPERATION}: the request did not reach the service`,
      undefined,
      error,
    );
  }
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    throw exceptionFromResponse(OPERATION, response.status, body);
  }
  const { body } = response;
  const named = fileOf(response);
  // Without the header, a set given as a DataSet still says its item type.
  const ref = params.dataSetId;
  const itemType =
    named.itemType ?? (typeof ref === 'object' && 'itemType' in ref ? ref.itemType : undefined);
  const text = async () => {
    let all = '';
    for await (const part of decoded(body)) all += part;
    return all;
  };
  const file: DataSetFile = {
    format: params.format,
    fileName: named.fileName,
    itemType: itemType as DataSetItemType | undefined,
    body,
    text,
  };
  if (params.format !== 'ndjson') return file as DataSetExport<F>;
  async function* items(): AsyncGenerator<DataSetItem, void, undefined> {
    for await (const line of lines(body)) {
      const item = JSON.parse(line) as never;
      yield itemType ? parseItem(itemType as DataSetItemType, item) : item;
    }
  }
  const ndjson: NdjsonDataSetFile = { ...file, items, [Symbol.asyncIterator]: items };
  return ndjson as DataSetExport<F>;
}

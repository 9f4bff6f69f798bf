import type { DataSetItemType } from '../../../domain/data-sets/item-types';
import type { DataSetExport } from '../../../services/set-kinds/data-set-export.service';
import type { StoredResultsShape } from '../../../services/results/result-parameters';
import type { RestDownload } from './download';
import { COMPONENT_SCHEMAS, type JsonSchema } from './openapi.schemas';
import { csvField, csvRecord, UTF8_BOM, valueAt } from './csv.encoder';
import { serializeComputedResult, serializeDataSetItems } from './data-set.serializer';

/**
 * The files of exportDataSet (contract.md §13). NDJSON: one line per item, the JSON a page holds.
 * CSV: the same items flattened, one column per field, nested objects by dotted names
 * (`author.id`), arrays (tags, questions) as JSON text, absent and null fields empty. The
 * columns are fixed by the item type (and, for computed results, by what the set was asked for)
 * before any item is read, so an empty set still has its header row.
 */

export const CSV_TYPE = 'text/csv; charset=utf-8';
export const NDJSON_TYPE = 'application/x-ndjson';

/** The 200 answer's media types, for the OpenAPI description. */
export const EXPORT_MEDIA: Readonly<Record<string, string>> = {
  'text/csv':
    'format=csv: RFC 4180, UTF-8 with a byte-order mark, CRLF line ends, a header row of the item fields (nested objects flattened with dots: author.id; arrays as JSON text; absent or null fields empty)',
  [NDJSON_TYPE]: 'format=ndjson: one item per line, the JSON of the items of getDataSetPage',
};

/** A column: the path of its field in an item's JSON. */
type Column = readonly string[];

const SCHEMA_REF = '#/components/schemas/';

/** The fields of a component schema, objects it refers to flattened into theirs. */
function schemaColumns(name: string, prefix: Column = []): Column[] {
  const properties = (COMPONENT_SCHEMAS[name]?.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).flatMap(([field, property]) => {
    const target = typeof property.$ref === 'string' ? property.$ref.slice(SCHEMA_REF.length) : '';
    const nested = COMPONENT_SCHEMAS[target]?.type === 'object';
    return nested ? schemaColumns(target, [...prefix, field]) : [[...prefix, field]];
  });
}

/** The fields of a computed result of a shape, as its serializer writes them. */
function resultColumns(shape: StoredResultsShape | undefined): Column[] {
  // Unreadable set parameters: every field any shape has, and nbGoodAnswers (as the views do).
  const shapes = shape
    ? [shape.groupBy === null ? 'detailed' : shape.groupBy === 'user' ? 'byUser' : 'byQuiz']
    : (['detailed', 'byUser', 'byQuiz'] as const);
  const values = (shape?.resultTypes ?? ['nbGoodAnswers']).map((type) => ({ type, value: null }));
  const fields = shapes.flatMap((resultShape) =>
    Object.keys(
      serializeComputedResult({
        id: 0,
        shape: resultShape as 'detailed' | 'byUser' | 'byQuiz',
        userId: null,
        quizId: null,
        sessionId: null,
        aggregationFunction: null,
        values,
      }),
    ),
  );
  return [...new Set(fields)].map((field) => [field]);
}

const SCHEMA_OF: Readonly<Record<Exclude<DataSetItemType, 'computedResult'>, string>> = {
  user: 'User',
  quiz: 'Quiz',
  userGroup: 'UserGroup',
  questionStatistic: 'QuestionStatistic',
  quizStatistic: 'QuizStatistic',
};

/** The columns of a set's CSV, in the order of the item's JSON fields. */
export function csvColumns(
  set: Pick<DataSetExport, 'itemType' | 'resultsShape'>,
): readonly Column[] {
  return set.itemType === 'computedResult'
    ? resultColumns(set.resultsShape)
    : schemaColumns(SCHEMA_OF[set.itemType]);
}

async function* csvBody(set: DataSetExport): AsyncGenerator<string, void, undefined> {
  const columns = csvColumns(set);
  // The header goes with the first chunk, so a failure to read it is still an error answer.
  let head = UTF8_BOM + csvRecord(columns.map((column) => column.join('.')));
  for await (const chunk of set.chunks()) {
    const records = serializeDataSetItems(chunk).map((item) =>
      csvRecord(columns.map((column) => csvField(valueAt(item, column)))),
    );
    yield head + records.join('');
    head = '';
  }
  if (head !== '') yield head;
}

async function* ndjsonBody(set: DataSetExport): AsyncGenerator<string, void, undefined> {
  for await (const chunk of set.chunks()) {
    const lines = serializeDataSetItems(chunk).map((item) => `${JSON.stringify(item)}\n`);
    // A chunk whose items were all left out (deleted quizzes) writes nothing.
    if (lines.length > 0) yield lines.join('');
  }
}

/** The file of an export, in its format. */
export function dataSetDownload(set: DataSetExport): RestDownload {
  const csv = set.format === 'csv';
  return {
    contentType: csv ? CSV_TYPE : NDJSON_TYPE,
    fileName: `${set.itemType}-${set.dataSetId}.${csv ? 'csv' : 'ndjson'}`,
    items: set.totalNumberOfItems,
    body: csv ? csvBody(set) : ndjsonBody(set),
  };
}

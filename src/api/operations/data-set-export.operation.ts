import { EXPORT_FORMATS, exportDataSet } from '../../services/set-kinds/data-set-export.service';
import { dataSetDownload, EXPORT_MEDIA } from './shapes/data-set-export.serializer';
import { EXPORT } from './operation-costs';
import { defineOperation } from './operation-definition';
import { choiceParameter, idParameter } from './operation-parameters';

/**
 * exportDataSet (contract.md §13): a whole set as one CSV or NDJSON file, on REST only (GraphQL
 * has no export: a streamed file is no GraphQL answer).
 */
export const exportDataSetOperation = defineOperation({
  name: 'exportDataSet',
  description:
    'Every item of a data set the requester made, in set order, as one CSV or NDJSON file streamed without paging.',
  rest: { methods: ['GET'], media: EXPORT_MEDIA, download: dataSetDownload },
  token: 'optional',
  cost: EXPORT,
  parameters: [
    idParameter('dataSetId', 'the set', 'data set id', { required: true }),
    choiceParameter(
      'format',
      'csv (RFC 4180, UTF-8 with a byte-order mark, a header row) or ndjson (one item per line)',
      EXPORT_FORMATS,
      'ExportFormat',
      { required: true },
    ),
  ],
  run: (ctx, { dataSetId, format }) => exportDataSet(ctx, dataSetId, format),
});

/** A set as a download. */
export const DATA_SET_EXPORT_OPERATIONS = {
  exportDataSet: exportDataSetOperation,
} as const;

import { exportPersonalData } from '../../services/privacy/personal-data-export.service';
import { EXPORT } from './operation-costs';
import { defineOperation } from './operation-definition';
import { personalDataDownload } from './shapes/personal-data.serializer';

/**
 * exportPersonalData (contract.md §14.3): everything the service holds about the token's user,
 * as one JSON document. REST streams it as a file; GraphQL answers the same sections as typed
 * objects, built in memory.
 */
export const exportPersonalDataOperation = defineOperation({
  name: 'exportPersonalData',
  description:
    "Everything the service holds about the token's user (GDPR art. 15 and 20): profile (never the password hash), groups, attendances, every answer with its value, score and time, quiz flags, authored quizzes, owned sessions, API keys (without secrets), unexpired data sets they made, and the access-log entries about them. The export itself is recorded in the access log; its items, for what it costs, are its answers.",
  graphQL: 'query',
  rest: {
    methods: ['GET'],
    media: { 'application/json': 'one JSON document, streamed (UTF-8)' },
    schemas: { 'application/json': 'PersonalData' },
    fileName: 'personal-data-<userId>.json',
    download: personalDataDownload,
  },
  token: 'required',
  tokenReason: 'an access token is required to export personal data',
  cost: EXPORT,
  parameters: [],
  run: (ctx) => exportPersonalData(ctx),
});

/** A person's own data (contract.md §14). */
export const PERSONAL_DATA_OPERATIONS = {
  exportPersonalData: exportPersonalDataOperation,
} as const;

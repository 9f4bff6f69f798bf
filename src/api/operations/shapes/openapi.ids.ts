/**
 * How identifiers read in the OpenAPI description: digits from 1 (parseId and the services
 * refuse 0 and any other text). A leaf module: the catalog's parameters and the component
 * schemas both read it.
 */
export const ID_PATTERN = '^[1-9][0-9]{0,9}$';

/** An identifier as a JSON body field: digits or an unsigned integer (contract.md §1). */
export const ID_BODY_SCHEMA: Record<string, unknown> = {
  oneOf: [
    { type: 'string', pattern: ID_PATTERN },
    { type: 'integer', minimum: 1 },
  ],
};

import type { components } from './openapi.generated';

/**
 * The JSON of one shape of schema/openapi.json (`components.schemas`), as the service sends it:
 * openapi.generated.ts, written by `npm run schema:emit`. An operation whose answer the client
 * does not transform returns it as it is, so a new one needs no type written in the client.
 */
export type WireSchema<N extends keyof components['schemas']> = components['schemas'][N];

/** The name of every shape of schema/openapi.json. */
export type WireSchemaName = keyof components['schemas'];

import { optionalString } from './parameter-text';

/** The credentials a request presents; absent ones are undefined. */
export interface Credentials {
  apiKey?: string;
  accessToken?: string;
}

/**
 * One place credentials travel in, as name → value: a query string (a repeated name is an
 * array), a JSON body, the GraphQL headers (X-Api-Key, Authorization: Bearer), a WebSocket's
 * connection params.
 */
export type CredentialCarrier = Readonly<Record<string, unknown>>;

/**
 * The one reading of credentials for every transport: from the carriers in order of
 * precedence, the first that holds a value wins. Every carrier is read, so a value given twice
 * in any of them is a BadParameterException (contract.md §1), on every wire alike.
 */
export function credentialsFrom(
  operation: string,
  ...carriers: readonly CredentialCarrier[]
): Credentials {
  const read = (name: keyof Credentials): string | undefined =>
    carriers
      .map((carrier) => optionalString(operation, carrier, name))
      .find((value) => value !== undefined);
  // apiKey first: when both are repeated, the key is the one reported.
  const apiKey = read('apiKey');
  return { apiKey, accessToken: read('accessToken') };
}

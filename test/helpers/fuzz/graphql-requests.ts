import fc from 'fast-check';
import { documentOf } from './graphql-documents';
import { rootFieldSpecs, type RootFieldSpec } from './graphql-fields';
import type { FuzzCredentials, FuzzPools, WeightedCredentials } from './pools';
import {
  credentialsArb,
  ORIGINS,
  queryString,
  specsByOwner,
  type FuzzRequest,
  type QueryPair,
} from './requests';

/*
 * GraphQL requests over HTTP: a document, sent the way clients (and others) send it.
 */

type GraphQLTransport =
  | 'post'
  | 'get'
  | 'get-no-preflight'
  | 'post-text'
  | 'post-form'
  | 'post-latin1'
  | 'post-compress'
  | 'batch'
  | 'variables-string'
  | 'variables-array'
  | 'no-query'
  | 'query-not-string'
  | 'put'
  | 'delete'
  | 'operation-name';

const ASCII = /^[\x20-\x7e]*$/;

/** A GraphQL request for one root field over HTTP, as clients (and others) send it. */
export function graphQLRequest(
  name: string,
  pools: FuzzPools,
  credentials: readonly WeightedCredentials[],
): fc.Arbitrary<FuzzRequest & { keys: string[] }> {
  const specFor = specsByOwner((owner) => rootFieldSpecs(pools, owner), name);
  // Half the requests are valid GraphQL with usual credentials, so that the hostile values reach
  // the resolvers often; the others are odd in every part.
  return fc
    .boolean()
    .chain((clean) =>
      credentialsArb(credentials, clean).chain((choice) =>
        graphQLRequestOf(specFor(clean ? choice.owner : undefined), choice.credentials, clean),
      ),
    );
}

const CLEAN_TRANSPORTS: Readonly<Record<RootFieldSpec['operation'], GraphQLTransport[]>> = {
  query: ['post', 'post', 'post', 'get'],
  // Apollo runs mutations over POST only.
  mutation: ['post'],
};

function graphQLRequestOf(
  spec: RootFieldSpec,
  creds: FuzzCredentials,
  clean: boolean,
): fc.Arbitrary<FuzzRequest & { keys: string[] }> {
  return fc
    .record({
      document: documentOf(spec, clean),
      transport: clean
        ? fc.constantFrom(...CLEAN_TRANSPORTS[spec.operation])
        : fc.oneof(
            { weight: 12, arbitrary: fc.constant<GraphQLTransport>('post') },
            { weight: 4, arbitrary: fc.constant<GraphQLTransport>('get') },
            {
              weight: 1,
              arbitrary: fc.constantFrom<GraphQLTransport>(
                'get-no-preflight',
                'post-text',
                'post-form',
                'batch',
                'variables-string',
                'variables-array',
                'no-query',
                'query-not-string',
                'put',
                'delete',
                'operation-name',
              ),
            },
          ),
      inHeaders: fc.boolean(),
      origin: clean
        ? fc.constant(undefined)
        : fc.option(fc.constantFrom(...ORIGINS), { freq: 8, nil: undefined }),
    })
    .map(({ document, transport, inHeaders, origin }) => {
      const headers: Record<string, string> = {};
      if (origin) headers.origin = origin;
      let pairs: QueryPair[] = creds.pairs;
      // X-Api-Key and Authorization: Bearer (contract.md §3) carry printable ASCII only.
      if (inHeaders && creds.pairs.every(([, value]) => ASCII.test(value))) {
        pairs = [];
        for (const [name, value] of creds.pairs) {
          if (name === 'apiKey') headers['x-api-key'] = value;
          else if (name === 'accessToken') headers.authorization = `Bearer ${value}`;
          else pairs.push([name, value]);
        }
      }
      const { query, variables, keys } = document;
      const payload: Record<string, unknown> = { query, variables };
      let method = 'POST';
      let body: string | undefined;
      switch (transport) {
        case 'get':
        case 'get-no-preflight':
          method = 'GET';
          pairs = [...pairs, ['query', query], ['variables', JSON.stringify(variables)]];
          // Apollo's CSRF prevention lets a GET through only with a header a form cannot set.
          if (transport === 'get') headers['apollo-require-preflight'] = 'true';
          break;
        case 'post-text':
        case 'post-form':
          headers['content-type'] =
            transport === 'post-text' ? 'text/plain' : 'application/x-www-form-urlencoded';
          body = JSON.stringify(payload);
          break;
        case 'post-latin1':
          headers['content-type'] = 'application/json; charset=latin1';
          body = JSON.stringify(payload);
          break;
        case 'post-compress':
          // Announced, not applied: the bytes are plain JSON.
          headers['content-encoding'] = 'compress';
          body = JSON.stringify(payload);
          break;
        case 'batch':
          body = JSON.stringify([payload, payload]);
          break;
        case 'variables-string':
          body = JSON.stringify({ query, variables: JSON.stringify(variables) });
          break;
        case 'variables-array':
          body = JSON.stringify({ query, variables: Object.values(variables) });
          break;
        case 'no-query':
          body = JSON.stringify({ variables });
          break;
        case 'query-not-string':
          body = JSON.stringify({ query: [query], variables });
          break;
        case 'put':
        case 'delete':
          method = transport.toUpperCase();
          body = JSON.stringify(payload);
          break;
        case 'operation-name':
          body = JSON.stringify({ ...payload, operationName: 'Nope' });
          break;
        default:
          body = JSON.stringify(payload);
      }
      if (body !== undefined && !headers['content-type'])
        headers['content-type'] = 'application/json';
      const search = queryString(pairs);
      return {
        method,
        path: `/graphql${search ? `?${search}` : ''}`,
        headers,
        ...(body === undefined ? {} : { body }),
        keys,
      };
    });
}

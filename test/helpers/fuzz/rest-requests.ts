import fc from 'fast-check';
import {
  answersPayload,
  anyJson,
  bodyArb,
  quizPayload,
  sessionPayload,
  type FuzzBody,
} from './payloads';
import {
  answeringSessionIds,
  setIds,
  type FuzzCredentials,
  type FuzzPools,
  type WeightedCredentials,
} from './pools';
import {
  credentialsArb,
  ORIGINS,
  queryString,
  specsByOwner,
  type FuzzRequest,
  type QueryPair,
} from './requests';
import { webhookRestSpecs } from './webhook-fuzz';
import {
  AGGREGATION_FUNCTIONS,
  booleanValues,
  dateValues,
  enumValues,
  EXPORT_FORMATS,
  GROUP_BY,
  hostileText,
  idValues,
  INCLUDE_QUIZZES,
  integerValues,
  joinCodeValues,
  listValues,
  QUIZ_ATTRIBUTE_NAMES,
  RESULT_TYPES,
  searchValues,
  SET_OPERATORS,
  USER_ATTRIBUTE_NAMES,
  type ParamValues,
} from './values';

/*
 * REST requests: the parameters of each operation, put in a query string with odd company.
 */

/**
 * A parameter given once (or absent, unless it is required); or, when not clean, absent, twice,
 * blank, bare or under a near-miss name, with odd values.
 */
function parameterPairs(
  name: string,
  param: ParamValues,
  clean: boolean,
  required = false,
): fc.Arbitrary<QueryPair[]> {
  const absent = fc.constant<QueryPair[]>([]);
  if (clean) {
    const once = param.clean.map((v): QueryPair[] => [[name, v]]);
    return required ? once : fc.oneof(absent, once);
  }
  const value = param.any;
  return fc.oneof(
    { weight: 4, arbitrary: absent },
    { weight: 10, arbitrary: value.map((v): QueryPair[] => [[name, v]]) },
    {
      weight: 1,
      arbitrary: fc.tuple(value, value).map(([a, b]): QueryPair[] => [
        [name, a],
        [name, b],
      ]),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<QueryPair[]>([[name, '']], [[name, null]], [[name, '  ']]),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(name.toUpperCase(), `${name}[]`, `${name}[0]`, ` ${name}`, `${name}.x`),
          value,
        )
        .map(([other, v]): QueryPair[] => [[other, v]]),
    },
  );
}

/** Query-string debris: separators, bare '=', bad percent escapes, unknown parameters. */
const rawQueryNoise: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 8, arbitrary: fc.constant<string[]>([]) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.constantFrom(
        '',
        '&',
        '=',
        '=x',
        '%',
        '%zz',
        '%C0%AF',
        '%ED%A0%80',
        'a=b=c',
        '+',
        ';',
        '#frag',
        '?',
      ),
      { minLength: 1, maxLength: 3 },
    ),
  },
);

const unknownPairs: fc.Arbitrary<QueryPair[]> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<QueryPair[]>([]) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.tuple(
        fc.constantFrom(
          'foo',
          '__proto__',
          'constructor',
          'toString',
          'prototype',
          'x',
          'callback',
        ),
        fc.oneof(hostileText, fc.constant(null)),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  },
);

/** A REST operation (src/api/operations, the catalog) and the values of each of its parameters. */
export interface RestOperationSpec {
  name: string;
  method: 'GET' | 'POST';
  params: Record<string, ParamValues>;
  /** Parameters a clean request always gives (contract.md §6). */
  required?: readonly string[];
  /** The JSON payload parameter and its values; see restRequest for where it travels. */
  payload?: { name: string; values: fc.Arbitrary<unknown> };
}

export function restOperationSpecs(pools: FuzzPools, owner?: string): RestOperationSpec[] {
  const id = (pool: readonly string[]) => idValues(pool, pools.unknownId);
  const quizId = id(pools.quizIds);
  const userId = id(pools.userIds);
  const sessionId = id(pools.sessionIds);
  const get = (
    name: string,
    params: Record<string, ParamValues>,
    required: readonly string[] = [],
  ): RestOperationSpec => ({ name, method: 'GET', params, required });
  return [
    get('getQuiz', { quizId }, ['quizId']),
    // The quiz itself travels in the body or the query string: see restRequest.
    { name: 'addQuiz', method: 'POST', params: {}, payload: { name: 'quiz', values: quizPayload } },
    get('getQuizSet', {
      keywords: searchValues,
      quizId,
      tag: searchValues,
      author: userId,
      player: userId,
      sessionId,
      creationDate: dateValues,
      modificationDate: dateValues,
      numberOfItemsPerPage: integerValues,
    }),
    get('getQuizAttribute', { quizId, attributeName: enumValues(QUIZ_ATTRIBUTE_NAMES) }, [
      'quizId',
      'attributeName',
    ]),
    get('getUser', { userId }, ['userId']),
    get('getUserAttribute', { userId, attributeName: enumValues(USER_ATTRIBUTE_NAMES) }, [
      'userId',
      'attributeName',
    ]),
    get('getUserSet', {
      userId,
      userGroupSetId: id(setIds(pools, owner, 'userGroup')),
      sessionId,
      raisedHand: booleanValues,
      quizId,
      numberOfItemsPerPage: integerValues,
    }),
    get('getUserGroupSet', { search: searchValues, numberOfItemsPerPage: integerValues }),
    get(
      'getResults',
      {
        userSetId: id(setIds(pools, owner, 'user')),
        quizSetId: id(setIds(pools, owner, 'quiz')),
        resultTypes: listValues(enumValues(RESULT_TYPES)),
        aggregationFunctions: listValues(enumValues(AGGREGATION_FUNCTIONS)),
        groupBy: enumValues(GROUP_BY),
        sessionIds: listValues(sessionId),
        sessionId,
        includeQuizzes: enumValues(INCLUDE_QUIZZES),
        numberOfItemsPerPage: integerValues,
      },
      ['userSetId', 'quizSetId'],
    ),
    ...(['getQuestionStatistics', 'getQuizStatistics'] as const).map((name) =>
      get(
        name,
        {
          userSetId: id(setIds(pools, owner, 'user')),
          quizSetId: id(setIds(pools, owner, 'quiz')),
          sessionIds: listValues(sessionId),
          sessionId,
          numberOfItemsPerPage: integerValues,
        },
        ['userSetId', 'quizSetId'],
      ),
    ),
    get(
      'computeDataSet',
      {
        dataSetId1: id(setIds(pools, owner)),
        dataSetId2: id(setIds(pools, owner)),
        operator: enumValues(SET_OPERATORS),
        numberOfItemsPerPage: integerValues,
      },
      ['dataSetId1', 'dataSetId2', 'operator'],
    ),
    get('getDataSetPage', { dataSetId: id(setIds(pools, owner)), pageIndex: integerValues }, [
      'dataSetId',
    ]),
    get(
      'exportDataSet',
      { dataSetId: id(setIds(pools, owner)), format: enumValues(EXPORT_FORMATS) },
      ['dataSetId', 'format'],
    ),
    {
      name: 'addSession',
      method: 'POST',
      params: {},
      payload: { name: 'session', values: sessionPayload(pools) },
    },
    get('getSession', { sessionId }, ['sessionId']),
    {
      name: 'joinSession',
      method: 'POST',
      params: { joinCode: joinCodeValues },
      required: ['joinCode'],
    },
    {
      name: 'addAnswers',
      method: 'POST',
      params: { sessionId: id(answeringSessionIds(pools)) },
      required: ['sessionId'],
      payload: { name: 'answers', values: answersPayload(pools) },
    },
    get('exportPersonalData', {}),
    ...webhookRestSpecs(pools),
  ];
}

/**
 * Where a JSON payload (addQuiz's quiz, addSession's session, addAnswers' answers) travels: the
 * contract's JSON body, the query string, both, or oddly.
 */
type PayloadPlacement = 'body' | 'query' | 'both' | 'bare' | 'stringified' | 'none';

/**
 * A request to a REST operation: method, parameters, credentials, body, headers. Half are clean
 * (the operation's method, usual credentials, each parameter absent or given once with a value a
 * client would send, the payload as a JSON body): those reach the services, where the fuzzed
 * values meet the data; the others are odd or hostile in every part. The other parameters of an
 * operation with a payload (addAnswers' sessionId) go in the query string or beside the payload
 * in the body, as text or, when they are digits, now and then as a JSON number.
 */
export function restRequest(
  name: string,
  pools: FuzzPools,
  credentials: readonly WeightedCredentials[],
): fc.Arbitrary<FuzzRequest> {
  const specFor = specsByOwner((owner) => restOperationSpecs(pools, owner), name);
  return fc
    .boolean()
    .chain((clean) =>
      credentialsArb(credentials, clean).chain((choice) =>
        restRequestOf(specFor(clean ? choice.owner : undefined), choice.credentials, clean),
      ),
    );
}

function restRequestOf(
  spec: RestOperationSpec,
  credentials: FuzzCredentials,
  clean: boolean,
): fc.Arbitrary<FuzzRequest> {
  const names = Object.keys(spec.params);
  const { payload } = spec;
  const fieldNames = [...new Set([...names, 'quiz', payload?.name ?? 'quiz', 'apiKey', 'x'])];
  const paramValues = fc.dictionary(
    fc.constantFrom(...fieldNames),
    fc.oneof(anyJson, ...names.map((name) => spec.params[name].any)),
    { maxKeys: 4, noNullPrototype: true },
  );
  const sometimes = <T>(usual: T, odd: fc.Arbitrary<T>, weight = 1): fc.Arbitrary<T> =>
    clean
      ? fc.constant(usual)
      : fc.oneof({ weight: 8, arbitrary: fc.constant(usual) }, { weight, arbitrary: odd });
  const none = <T>(odd: fc.Arbitrary<T>, freq: number) =>
    clean ? fc.constant(undefined) : fc.option(odd, { freq, nil: undefined });
  return fc
    .record({
      method: sometimes<string>(spec.method, fc.constantFrom('GET', 'POST', 'PUT', 'DELETE')),
      credentialsFirst: fc.boolean(),
      params: fc.tuple(
        ...names.map((name) =>
          parameterPairs(name, spec.params[name], clean, spec.required?.includes(name)),
        ),
      ),
      unknown: clean ? fc.constant<QueryPair[]>([]) : unknownPairs,
      noise: clean ? fc.constant<string[]>([]) : rawQueryNoise,
      payload: payload ? payload.values : fc.constant(undefined),
      placement: sometimes<PayloadPlacement>(
        'body',
        fc.constantFrom<PayloadPlacement>('query', 'both', 'bare', 'stringified', 'none'),
        4,
      ),
      paramsInBody: fc.boolean(),
      numbers: fc.boolean(),
      extraBodyFields: none(paramValues, 4),
      // Bodies of the other operations (and the other methods): anything.
      body: none(bodyArb(fc.oneof(anyJson, paramValues)), 2),
      payloadBody: clean
        ? fc.constant<FuzzBody>({ contentType: 'application/json', text: '' })
        : bodyArb(fc.constant(null), 12),
      origin: none(fc.constantFrom(...ORIGINS), 8),
    })
    .map((r) => {
      let pairs: QueryPair[] = r.params.flat();
      let body: FuzzBody | undefined = r.body;
      if (payload) {
        const { name } = payload;
        const payloadText = JSON.stringify(r.payload) ?? '';
        const fields: Record<string, unknown> = { ...r.extraBodyFields };
        if (r.paramsInBody && r.placement !== 'query' && r.placement !== 'bare') {
          pairs = pairs.filter(([param, value]) => {
            if (value === null) return true;
            fields[param] = r.numbers && /^\d+$/.test(value) ? Number(value) : value;
            return false;
          });
        }
        if (r.placement === 'query' || r.placement === 'both') pairs.push([name, payloadText]);
        if (r.placement === 'body' || r.placement === 'both') fields[name] = r.payload;
        if (r.placement === 'stringified') fields[name] = payloadText;
        const value = r.placement === 'bare' ? r.payload : fields;
        if (r.placement !== 'query' || r.extraBodyFields) {
          body = { ...r.payloadBody, text: JSON.stringify(value) ?? '' };
        }
      }
      pairs.push(...r.unknown);
      const credentialPairs: QueryPair[] = credentials.pairs;
      const all = r.credentialsFirst
        ? [...credentialPairs, ...pairs]
        : [...pairs, ...credentialPairs];
      const search = queryString(all, r.noise);
      const headers: Record<string, string> = {};
      if (r.origin) headers.origin = r.origin;
      const request: FuzzRequest = {
        method: r.method,
        path: `/${spec.name}${search ? `?${search}` : ''}`,
        headers,
      };
      // fetch sends no body with GET.
      if (body && r.method !== 'GET') {
        if (body.contentType) headers['content-type'] = body.contentType;
        if (body.contentEncoding) headers['content-encoding'] = body.contentEncoding;
        request.body = body.text;
      }
      return request;
    });
}

import fc from 'fast-check';

/*
 * GraphQL: the object types root fields return, and selection sets on them.
 */

type Selection = { kind: 'scalar' } | ObjectShape | UnionShape;
export interface ObjectShape {
  kind: 'object';
  name: string;
  fields: Record<string, () => Selection>;
  /** Types that implement this interface (for inline fragments on them). */
  implementations?: ObjectShape[];
}
interface UnionShape {
  kind: 'union';
  name: string;
  members: () => ObjectShape[];
}

const SCALAR: Selection = { kind: 'scalar' };
const scalars = (...names: string[]): Record<string, () => Selection> =>
  Object.fromEntries(names.map((name) => [name, () => SCALAR]));

export const USER: ObjectShape = {
  kind: 'object',
  name: 'User',
  fields: scalars('id', 'firstName', 'lastName', 'pictureURL'),
};
const MEDIA: ObjectShape = { kind: 'object', name: 'Media', fields: scalars('type', 'url') };
const questionShape = (name: string, ...extra: string[]): ObjectShape => ({
  kind: 'object',
  name,
  fields: { ...scalars('title', 'type', 'position', 'goodAnswer', ...extra), media: () => MEDIA },
});
const QUESTION: ObjectShape = {
  kind: 'object',
  name: 'Question',
  fields: { ...scalars('title', 'type', 'position'), media: () => MEDIA },
  implementations: [
    questionShape('MultipleChoicesOneGoodAnswerQuestion', 'propositions'),
    questionShape('MultipleChoicesSeveralGoodAnswersQuestion', 'propositions'),
    questionShape('TrueFalseQuestion'),
    questionShape('FreeAnswerTextQuestion', 'tolerance', 'caseSensitive'),
    questionShape('FreeAnswerNumberQuestion', 'tolerance'),
  ],
};
export const QUIZ: ObjectShape = {
  kind: 'object',
  name: 'Quiz',
  fields: {
    ...scalars(
      'id',
      'title',
      'visibility',
      'survey',
      'tags',
      'creationDate',
      'lastChangeDate',
      'nbQuestions',
      'defaultDuration',
      'favorite',
      'imported',
    ),
    author: () => USER,
    questions: () => QUESTION,
  },
};
export const SESSION: ObjectShape = {
  kind: 'object',
  name: 'Session',
  fields: {
    ...scalars(
      'id',
      'title',
      'startDate',
      'quizIds',
      'nbAttendees',
      'joinCode',
      'joinCodeExpiresAt',
    ),
    owner: () => USER,
  },
};
const personal = (name: string, ...fields: string[]): ObjectShape => ({
  kind: 'object',
  name,
  fields: scalars(...fields),
});
/** exportPersonalData's document (contract.md §14.3). */
export const PERSONAL_DATA: ObjectShape = {
  kind: 'object',
  name: 'PersonalData',
  fields: {
    ...scalars('exportedAt'),
    profile: () => personal('PersonalProfile', 'id', 'email', 'firstName', 'publicProfile'),
    groups: () => ({
      kind: 'object',
      name: 'PersonalGroups',
      fields: {
        owned: () => personal('PersonalOwnedGroup', 'id', 'name', 'nbMembers', 'createdAt'),
        memberOf: () => personal('PersonalMemberGroup', 'id', 'name', 'ownerId'),
      },
    }),
    attendances: () => personal('PersonalAttendance', 'sessionId', 'startDate', 'raisedHand'),
    answers: () => personal('PersonalAnswer', 'id', 'questionIndex', 'value', 'good', 'answeredAt'),
    quizFlags: () => personal('PersonalQuizFlag', 'quizId', 'favorite', 'imported'),
    quizzes: () => personal('PersonalQuiz', 'id', 'title', 'visibility', 'nbQuestions'),
    sessions: () => personal('PersonalSession', 'id', 'title', 'clientRef', 'nbAttendees'),
    apiKeys: () => personal('PersonalApiKey', 'id', 'keyPrefix', 'host', 'revokedAt'),
    dataSets: () => personal('PersonalDataSet', 'id', 'itemType', 'parameters', 'expiresAt'),
    accessLog: () => personal('PersonalAccessLogEntry', 'accessedAt', 'operation', 'requestId'),
  },
};
export const ADD_ANSWERS_RESULT: ObjectShape = {
  kind: 'object',
  name: 'AddAnswersResult',
  fields: scalars('sessionId', 'received', 'inserted', 'updated', 'unchanged'),
};
const USER_GROUP: ObjectShape = {
  kind: 'object',
  name: 'UserGroup',
  fields: scalars('id', 'name', 'nbMembers'),
};
const COMPUTED_RESULT: ObjectShape = {
  kind: 'object',
  name: 'ComputedResult',
  fields: {
    ...scalars(
      'id',
      'itemId',
      'userId',
      'quizId',
      'sessionId',
      'aggregationFunction',
      'nbGoodAnswers',
      'goodAnswersPercent',
      'percentile',
      'nbAnswers',
      'duration',
    ),
    user: () => USER,
    quiz: () => QUIZ,
    session: () => SESSION,
  },
};
const QUESTION_STATISTIC: ObjectShape = {
  kind: 'object',
  name: 'QuestionStatistic',
  fields: {
    ...scalars(
      'id',
      'itemId',
      'quizId',
      'questionIndex',
      'title',
      'type',
      'nbAttempts',
      'nbAnswers',
      'facility',
      'discrimination',
      'choiceCounts',
    ),
    quiz: () => QUIZ,
  },
};
const QUIZ_STATISTIC: ObjectShape = {
  kind: 'object',
  name: 'QuizStatistic',
  fields: {
    ...scalars(
      'id',
      'itemId',
      'quizId',
      'nbAttempts',
      'mean',
      'median',
      'stddev',
      'cronbachAlpha',
      'histogram',
    ),
    quiz: () => QUIZ,
    questions: () => QUESTION_STATISTIC,
  },
};
const DATA_SET_ITEM: UnionShape = {
  kind: 'union',
  name: 'DataSetItem',
  members: () => [USER, QUIZ, USER_GROUP, COMPUTED_RESULT, QUESTION_STATISTIC, QUIZ_STATISTIC],
};
const PAGE_FIELDS = scalars(
  'dataSetId',
  'itemType',
  'numberOfPages',
  'numberOfItemsPerPage',
  'totalNumberOfItems',
  'currentPageIndex',
);
/** The DataSet interface (getDataSetPage, computeDataSet): items of any item type. */
export const DATA_SET: ObjectShape = {
  kind: 'object',
  name: 'DataSet',
  fields: { ...PAGE_FIELDS, items: () => DATA_SET_ITEM },
};
/** A page type: the DataSet fields, items of its item type only (contract §15). */
const pageOf = (name: string, item: ObjectShape): ObjectShape => ({
  kind: 'object',
  name,
  fields: { ...PAGE_FIELDS, items: () => item },
});
export const USER_PAGE = pageOf('UserPage', USER);
export const QUIZ_PAGE = pageOf('QuizPage', QUIZ);
export const USER_GROUP_PAGE = pageOf('UserGroupPage', USER_GROUP);
export const COMPUTED_RESULT_PAGE = pageOf('ComputedResultPage', COMPUTED_RESULT);
export const QUESTION_STATISTIC_PAGE = pageOf('QuestionStatisticPage', QUESTION_STATISTIC);
export const QUIZ_STATISTIC_PAGE = pageOf('QuizStatisticPage', QUIZ_STATISTIC);
export const SESSION_RESULTS: ObjectShape = {
  kind: 'object',
  name: 'SessionResults',
  fields: {
    userSet: () => USER_PAGE,
    quizSet: () => QUIZ_PAGE,
    results: () => COMPUTED_RESULT_PAGE,
  },
};
/** getDataSetItems: a Relay connection over a set's items (contract §15). */
export const DATA_SET_ITEM_CONNECTION: ObjectShape = {
  kind: 'object',
  name: 'DataSetItemConnection',
  fields: {
    ...scalars('totalCount'),
    edges: () => ({
      kind: 'object',
      name: 'DataSetItemEdge',
      fields: { ...scalars('cursor'), node: () => DATA_SET_ITEM },
    }),
    pageInfo: () => ({
      kind: 'object',
      name: 'PageInfo',
      fields: scalars('hasNextPage', 'endCursor'),
    }),
  },
};
export const ITEM_ATTRIBUTE: ObjectShape = {
  kind: 'object',
  name: 'ItemAttribute',
  fields: scalars('itemType', 'itemId', 'itemName', 'itemValue'),
};

const UNKNOWN_FIELDS = [
  'nope',
  'password',
  'email',
  'passwordHash',
  'secret',
  'id(x: 1)',
  '__schema',
  '__type',
];
const aliasName = fc.constantFrom('a', 'b', 'x1', 'id', 'title', '_', 'dataSetId', 'items');

/**
 * A selection set of a shape: real fields (some aliased, some twice), unknown ones, fragments.
 * A clean one is valid GraphQL: known fields only, each object field with its own selection,
 * and goodAnswer (of another type on each question type) under an alias of its own type.
 */
export function selectionOf(shape: Selection, depth: number, clean: boolean): fc.Arbitrary<string> {
  if (shape.kind === 'scalar') return fc.constant('');
  if (shape.kind === 'union') {
    return fc
      .subarray(shape.members(), { minLength: 0 })
      .chain((members) =>
        fc
          .tuple(...members.map((member) => selectionOf(member, depth - 1, clean)))
          .map(
            (parts) =>
              `{ __typename ${parts.map((part, index) => `... on ${members[index].name} ${part}`).join(' ')} }`,
          ),
      );
  }
  const names = Object.keys(shape.fields);
  const field = fc
    .tuple(fc.constantFrom(...names), fc.option(aliasName, { freq: 5, nil: undefined }))
    .chain(([name, alias]) => {
      const sub = shape.fields[name]();
      let prefix = alias ? `${alias}: ${name}` : name;
      if (clean) prefix = name === 'goodAnswer' ? `${shape.name}Answer: ${name}` : name;
      if (sub.kind === 'scalar') return fc.constant(prefix);
      // Past the depth, an object field is selected without a selection set now and then (invalid).
      if (depth <= 0) {
        return clean
          ? fc.constant(`${prefix} { __typename }`)
          : fc.constantFrom(`${prefix} { __typename }`, prefix);
      }
      return selectionOf(sub, depth - 1, clean).map((selection) => `${prefix} ${selection}`);
    });
  const others: fc.Arbitrary<string>[] = [fc.constant('__typename')];
  if (!clean) others.push(fc.constantFrom(...UNKNOWN_FIELDS));
  if (shape.implementations && depth > 0) {
    others.push(
      fc
        .constantFrom(...shape.implementations)
        .chain((impl) =>
          selectionOf(impl, depth - 1, clean).map(
            (selection) => `... on ${impl.name} ${selection}`,
          ),
        ),
    );
  }
  if (depth > 0) {
    others.push(
      selectionOf({ ...shape, implementations: undefined }, 0, clean).map(
        (selection) => `... on ${shape.name} ${selection}`,
      ),
    );
  }
  const entry = fc.oneof(
    { weight: 6, arbitrary: field },
    ...others.map((arbitrary) => ({ weight: 1, arbitrary })),
  );
  const entries = fc.array(entry, { minLength: 1, maxLength: 5 });
  return (
    clean
      ? entries
      : entries.chain((list) =>
          fc.oneof(
            { weight: 9, arbitrary: fc.constant(list) },
            // Empty selection sets are not GraphQL.
            { weight: 1, arbitrary: fc.constant([] as string[]) },
          ),
        )
  ).map((list) => `{ ${list.join(' ')} }`);
}

import {
  AGGREGATION_FUNCTIONS,
  GROUP_BY,
  INCLUDE_QUIZZES,
  RESULT_TYPES,
} from '../../../services/results/result-parameters';
import type { JsonSchema } from './openapi.schemas';

export interface ParameterDoc {
  name: string;
  required?: boolean;
  description: string;
  schema: JsonSchema;
}

/** The documentation of one legacy operation; the response is a component schema's name. */
export interface OperationDoc {
  method: 'get' | 'post';
  summary: string;
  /** `required`: an access token is needed. */
  token: 'optional' | 'required' | 'for detailed results';
  parameters: ParameterDoc[];
  response: string;
  /** Statuses this operation can answer with besides 200 (all with an Exception body). */
  errors: number[];
  /** The schema of the JSON body's fields, for operations that take one. */
  body?: Record<string, JsonSchema>;
}

const id = (description: string): JsonSchema => ({
  type: 'string',
  pattern: '^[0-9]+$',
  description,
});
const text: JsonSchema = { type: 'string' };
const bool: JsonSchema = { type: 'string', enum: ['true', 'false', '1', '0'] };
const interval: JsonSchema = {
  type: 'string',
  description:
    '`start,end` or one value d meaning [d,d]; values `YYYY-MM-DD hh:mm:ss` or `YYYY-MM-DD`',
};
const pageSize: ParameterDoc = {
  name: 'numberOfItemsPerPage',
  description: 'page size of the set made, 1 to 1000 (default 50)',
  schema: { type: 'string', pattern: '^[0-9]+$' },
};
/** A comma-separated list of names from a closed set. */
const list = (names: readonly string[]): JsonSchema => ({
  type: 'string',
  pattern: `^(${names.join('|')})(,(${names.join('|')}))*$`,
});
// 415: a body in an encoding or charset the service does not read, whatever the method.
const COMMON_ERRORS = [400, 401, 403, 404, 413, 415, 429, 500, 503];

/** Every legacy operation, in the order of contract.md §6. */
export const OPERATION_DOCS: Record<string, OperationDoc> = {
  getQuiz: {
    method: 'get',
    summary:
      'One quiz: public attributes for everyone, all attributes for an authenticated requester.',
    token: 'optional',
    parameters: [
      { name: 'quizId', required: true, description: 'the quiz', schema: id('quiz id') },
    ],
    response: 'Quiz',
    errors: COMMON_ERRORS,
  },
  addQuiz: {
    method: 'post',
    summary:
      'Adds a quiz to the account of the token owner. `quiz` is JSON, in the query string or as the field `quiz` of a JSON body.',
    token: 'required',
    parameters: [
      {
        name: 'quiz',
        description:
          'JSON (schema QuizInput): title, visibility, survey, tags required; questions, defaultDuration, favorite optional',
        schema: text,
      },
    ],
    response: 'Quiz',
    errors: COMMON_ERRORS,
    body: { quiz: { $ref: '#/components/schemas/QuizInput' } },
  },
  getQuizSet: {
    method: 'get',
    summary:
      'Makes the set of quizzes matching all the given filters (at least one) and returns its first page.',
    token: 'optional',
    parameters: [
      {
        name: 'keywords',
        description: 'words matched in title, tags, author name, question titles and propositions',
        schema: text,
      },
      { name: 'quizId', description: 'one quiz', schema: id('quiz id') },
      { name: 'tag', description: 'quizzes with this tag', schema: text },
      { name: 'author', description: 'quizzes by this user', schema: id('user id') },
      {
        name: 'player',
        description: 'quizzes played in a session this user attended',
        schema: id('user id'),
      },
      {
        name: 'sessionId',
        description: 'quizzes played in this session',
        schema: id('session id'),
      },
      { name: 'creationDate', description: 'creation date interval', schema: interval },
      { name: 'modificationDate', description: 'last change date interval', schema: interval },
      pageSize,
    ],
    response: 'DataSetPage',
    errors: COMMON_ERRORS,
  },
  getQuizAttribute: {
    method: 'get',
    summary: 'One field of a quiz, or the computed nbSessions, nbPlayers or nbFavorites.',
    token: 'optional',
    parameters: [
      { name: 'quizId', required: true, description: 'the quiz', schema: id('quiz id') },
      {
        name: 'attributeName',
        required: true,
        description: 'a Quiz field or nbSessions, nbPlayers, nbFavorites',
        schema: text,
      },
    ],
    response: 'ItemAttribute',
    errors: COMMON_ERRORS,
  },
  getUser: {
    method: 'get',
    summary: 'One user; names and picture only where the requester may see them.',
    token: 'optional',
    parameters: [
      { name: 'userId', required: true, description: 'the user', schema: id('user id') },
    ],
    response: 'User',
    errors: COMMON_ERRORS,
  },
  getUserAttribute: {
    method: 'get',
    summary: 'firstName, lastName, pictureURL, or the computed popularity or influence of a user.',
    token: 'required',
    parameters: [
      { name: 'userId', required: true, description: 'the user', schema: id('user id') },
      {
        name: 'attributeName',
        required: true,
        description: 'firstName, lastName, pictureURL, popularity or influence',
        schema: text,
      },
    ],
    response: 'ItemAttribute',
    errors: COMMON_ERRORS,
  },
  getUserSet: {
    method: 'get',
    summary:
      'Makes the set of users matching all the given filters (at least one) and returns its first page.',
    token: 'optional',
    parameters: [
      { name: 'userId', description: 'one user', schema: id('user id') },
      {
        name: 'userGroupSetId',
        description: 'members of the groups of this data set',
        schema: id('data set id'),
      },
      { name: 'sessionId', description: 'attendees of this session', schema: id('session id') },
      {
        name: 'raisedHand',
        description: 'with sessionId: attendees who raised their hand (or not)',
        schema: bool,
      },
      {
        name: 'quizId',
        description: 'users who attended a session that played this quiz',
        schema: id('quiz id'),
      },
      pageSize,
    ],
    response: 'DataSetPage',
    errors: COMMON_ERRORS,
  },
  getUserGroupSet: {
    method: 'get',
    summary:
      'Makes the set of the groups the requester owns or belongs to and returns its first page.',
    token: 'required',
    parameters: [{ name: 'search', description: 'name prefix', schema: text }, pageSize],
    response: 'DataSetPage',
    errors: COMMON_ERRORS,
  },
  getResults: {
    method: 'get',
    summary:
      "Computes the results of a user set on a quiz set (both the requester's) into a new set of computed results and returns its first page: detailed (one item per attempt) without aggregationFunctions, else one item per (user or quiz, function).",
    token: 'for detailed results',
    parameters: [
      {
        name: 'userSetId',
        required: true,
        description: 'a user set of the requester',
        schema: id('data set id'),
      },
      {
        name: 'quizSetId',
        required: true,
        description: 'a quiz set of the requester',
        schema: id('data set id'),
      },
      {
        name: 'resultTypes',
        description: `comma-separated: ${RESULT_TYPES.join(', ')} (default nbGoodAnswers)`,
        schema: list(RESULT_TYPES),
      },
      {
        name: 'aggregationFunctions',
        description: `comma-separated: ${AGGREGATION_FUNCTIONS.join(', ')}; needs groupBy. Without it, detailed results (an access token is needed)`,
        schema: list(AGGREGATION_FUNCTIONS),
      },
      {
        name: 'groupBy',
        description: 'user or quiz; required with aggregationFunctions, refused without',
        schema: { enum: [...GROUP_BY] },
      },
      {
        name: 'sessionIds',
        description: 'comma-separated session ids: only answers of these sessions count',
        schema: { type: 'string', pattern: '^[0-9]+(,[0-9]+)*$' },
      },
      {
        name: 'sessionId',
        description: 'one session: only its answers count (not with sessionIds)',
        schema: id('session id'),
      },
      {
        name: 'includeQuizzes',
        description:
          'answered (default) or all: all adds a zero attempt (sessionId null) for each (user, quiz) pair without an attempt; in detailed results, for each pair without an attempt the requester may see, and those zeros are shown',
        schema: { enum: [...INCLUDE_QUIZZES] },
      },
      pageSize,
    ],
    response: 'DataSetPage',
    errors: COMMON_ERRORS,
  },
  computeDataSet: {
    method: 'get',
    summary:
      'Combines two sets of the requester of the same item type into a new set; returns its first page.',
    token: 'optional',
    parameters: [
      { name: 'dataSetId1', required: true, description: 'first set', schema: id('data set id') },
      { name: 'dataSetId2', required: true, description: 'second set', schema: id('data set id') },
      {
        name: 'operator',
        required: true,
        description: 'union, intersection or difference',
        schema: { enum: ['union', 'intersection', 'difference'] },
      },
      pageSize,
    ],
    response: 'DataSetPage',
    errors: COMMON_ERRORS,
  },
  getDataSetPage: {
    method: 'get',
    summary: 'One page of a data set the requester made.',
    token: 'optional',
    parameters: [
      { name: 'dataSetId', required: true, description: 'the set', schema: id('data set id') },
      {
        name: 'pageIndex',
        description: '1 to numberOfPages (default 1)',
        schema: { type: 'string', pattern: '^[0-9]+$' },
      },
    ],
    response: 'DataSetPage',
    errors: COMMON_ERRORS,
  },
};

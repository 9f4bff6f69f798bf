import {
  QUESTION_TYPE_ALIASES,
  QUESTION_TYPES,
  TOLERANCES,
} from '../../../domain/questions/question-types';
import { DURATION_PATTERN, QUIZ_LIMITS } from '../../../domain/quizzes/quiz-content.validator';
import { MAX_JSON_DEPTH } from '../../../domain/validation/checks';
import { MEDIA_TYPES } from '../../../domain/questions/question-types';
import { QUIZ_VISIBILITIES } from '../../../domain/quizzes/quiz.rules';
import { ERROR_TABLE } from '../../../errors';
import { QUIZ_PUBLIC_FIELDS } from '../../../services/quizzes/quiz.views';
import { PAGE_SCHEMAS } from './openapi.page-schemas';
import { SESSION_SCHEMAS } from './openapi.session-schemas';
import { PERSONAL_DATA_SCHEMAS } from './openapi.personal-data-schemas';
import { WEBHOOK_SCHEMAS } from './openapi.webhook-schemas';
import { AGGREGATION_FUNCTIONS, RESULT_TYPES } from '../../../services/results/result-parameters';
import { resultTypeDefinition } from '../../../domain/results/result-types.registry';
import {
  QUESTION_STATISTIC_FIELDS,
  QUIZ_STATISTIC_FIELDS,
  type StatisticField,
} from '../../../services/statistics/item-statistics.registry';

/** JSON Schema (2020-12, as OpenAPI 3.1 uses it) of the legacy wire shapes. */
export type JsonSchema = Record<string, unknown>;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const idString: JsonSchema = { type: 'string', pattern: '^[0-9]+$' };
const legacyDate: JsonSchema = {
  type: 'string',
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$',
  description: 'YYYY-MM-DD hh:mm:ss, UTC',
};

function object(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

const questionBase = {
  title: { type: 'string', minLength: 1, maxLength: 250 },
  media: ref('Media'),
};

function question(
  type: string,
  extra: Record<string, JsonSchema>,
  required: string[] = [],
): JsonSchema {
  return object({ ...questionBase, type: { const: type }, ...extra }, [
    'title',
    'type',
    ...required,
  ]);
}

const propositions: JsonSchema = {
  type: 'array',
  items: { type: 'string' },
  minItems: QUIZ_LIMITS.propositions.min,
  maxItems: QUIZ_LIMITS.propositions.max,
};
const tolerance: JsonSchema = { type: 'integer', enum: [...TOLERANCES] };

/** The JSON of a statistic item: its id, then the registry's fields, all present. */
function statisticSchema(fields: readonly StatisticField[], description: string): JsonSchema {
  const schemaOf = (field: StatisticField): JsonSchema => {
    switch (field.value) {
      case 'integer':
        return field.name === 'quizId' ? idString : { type: 'integer', minimum: 0 };
      case 'number':
        return { type: ['number', 'null'] };
      case 'text':
        return { type: 'string' };
      case 'counts':
        return { type: ['array', 'null'], items: { type: 'integer', minimum: 0 } };
    }
  };
  const properties = Object.fromEntries(
    fields.map((field) => [field.name, { ...schemaOf(field), description: field.description }]),
  );
  return {
    ...object({ id: idString, ...properties }, ['id', ...fields.map((field) => field.name)]),
    description,
  };
}

/**
 * One number per requested result type; aggregated values are null for a group without attempts,
 * and a score (nbGoodAnswers, goodAnswersPercent, percentile) is null for an attempt on a survey.
 */
function resultValues(nullable: boolean): Record<string, JsonSchema> {
  const value = (canBeNull: boolean): JsonSchema => ({
    type: canBeNull ? ['number', 'null'] : 'number',
    minimum: 0,
  });
  return Object.fromEntries(
    RESULT_TYPES.map((type) => [
      type,
      value(nullable || Boolean(resultTypeDefinition(type).scored)),
    ]),
  );
}

/** A shape of ComputedResult: its fixed fields, and at least one result type. */
function computedResult(
  title: string,
  fields: Record<string, JsonSchema>,
  nullable: boolean,
): JsonSchema {
  const required = Object.keys(fields);
  return {
    title,
    ...object({ id: idString, ...fields, ...resultValues(nullable) }, ['id', ...required]),
    minProperties: required.length + 2,
  };
}

const { titleLength, tags, tagLength, questions, questionTitleLength } = QUIZ_LIMITS;

/** The quiz addQuiz takes: its bounds as the service checks them (unknown fields are ignored). */
const quizInput: JsonSchema = {
  type: 'object',
  required: ['title', 'visibility', 'survey', 'tags'],
  properties: {
    title: { type: 'string', minLength: titleLength.min, maxLength: titleLength.max },
    visibility: { type: 'string', enum: [...QUIZ_VISIBILITIES] },
    survey: { type: 'boolean' },
    tags: {
      type: 'array',
      items: { type: 'string', minLength: tagLength.min, maxLength: tagLength.max },
      minItems: tags.min,
      maxItems: tags.max,
      uniqueItems: true,
    },
    questions: {
      type: 'array',
      maxItems: questions.max,
      items: {
        type: 'object',
        required: ['title', 'type'],
        properties: {
          title: {
            type: 'string',
            minLength: questionTitleLength.min,
            maxLength: questionTitleLength.max,
          },
          type: {
            type: 'string',
            enum: [...QUESTION_TYPES, ...Object.keys(QUESTION_TYPE_ALIASES)],
            description: `one of ${QUESTION_TYPES.join(', ')}; the legacy spellings ${Object.keys(QUESTION_TYPE_ALIASES).join(', ')} are read as aliases`,
          },
          propositions,
          media: ref('Media'),
          tolerance,
          caseSensitive: { type: 'boolean' },
          goodAnswer: { description: 'an index, indexes, a boolean, a text or a number by type' },
        },
      },
    },
    defaultDuration: {
      type: 'string',
      pattern: DURATION_PATTERN.source,
      description: 'H:M:S, M:S or S',
    },
    favorite: { type: 'boolean' },
  },
  description: `The quiz addQuiz takes (contract.md §4); counts are checked before anything else, and JSON nested deeper than ${MAX_JSON_DEPTH} levels is refused.`,
};

export const COMPONENT_SCHEMAS: Record<string, JsonSchema> = {
  QuizInput: quizInput,
  ...SESSION_SCHEMAS,
  Exception: object(
    {
      type: {
        type: 'string',
        enum: [...new Set(Object.values(ERROR_TABLE).map((row) => row.type))],
      },
      message: { type: 'string' },
      operation: { type: 'string' },
      reason: { type: 'string' },
      parameterName: { type: 'string' },
      providedValue: { type: 'string' },
      retryAfterSeconds: { type: 'integer', minimum: 0 },
      requestId: { type: 'string' },
      limit: { type: 'integer' },
      actual: { type: 'integer' },
    },
    ['type', 'message', 'operation', 'reason'],
  ),
  User: {
    ...object(
      {
        id: idString,
        firstName: { type: 'string' },
        lastName: { type: 'string' },
        pictureURL: { type: ['string', 'null'] },
      },
      ['id'],
    ),
    description:
      'firstName, lastName and pictureURL are present only where the requester may see them.',
  },
  Media: object({ type: { type: 'string', enum: [...MEDIA_TYPES] }, url: { type: 'string' } }, [
    'type',
    'url',
  ]),
  Question: {
    oneOf: [
      question(
        'MultipleChoicesOneGoodAnswer',
        { propositions, goodAnswer: { type: 'integer', minimum: 0 } },
        ['propositions'],
      ),
      question(
        'MultipleChoicesSeveralGoodAnswers',
        {
          propositions,
          goodAnswer: { type: 'array', items: { type: 'integer', minimum: 0 }, uniqueItems: true },
        },
        ['propositions'],
      ),
      question('TrueFalse', { goodAnswer: { type: 'boolean' } }),
      question(
        'FreeAnswerText',
        { tolerance, caseSensitive: { type: 'boolean' }, goodAnswer: { type: 'string' } },
        ['caseSensitive'],
      ),
      question('FreeAnswerNumber', { tolerance, goodAnswer: { type: 'number' } }),
    ],
    description: `One of ${QUESTION_TYPES.join(', ')}; goodAnswer only for the quiz author.`,
  },
  Quiz: {
    ...object(
      {
        id: idString,
        title: { type: 'string', minLength: 3, maxLength: 250 },
        visibility: { type: 'string', enum: [...QUIZ_VISIBILITIES] },
        survey: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        creationDate: legacyDate,
        lastChangeDate: legacyDate,
        author: ref('User'),
        nbQuestions: { type: 'integer', minimum: 0 },
        questions: { type: 'array', items: ref('Question') },
        defaultDuration: { type: 'string' },
        imported: { type: 'boolean' },
        favorite: { type: 'boolean' },
      },
      [...QUIZ_PUBLIC_FIELDS],
    ),
    description:
      'defaultDuration, imported and favorite are present for an authenticated requester only.',
  },
  UserGroup: object(
    { id: idString, name: { type: 'string' }, nbMembers: { type: 'integer', minimum: 0 } },
    ['id', 'name', 'nbMembers'],
  ),
  ComputedResult: {
    oneOf: [
      computedResult(
        'detailed',
        {
          userId: idString,
          quizId: idString,
          sessionId: { ...idString, type: ['string', 'null'] },
        },
        false,
      ),
      computedResult(
        'grouped by user',
        {
          userId: idString,
          aggregationFunction: { type: 'string', enum: [...AGGREGATION_FUNCTIONS] },
        },
        true,
      ),
      computedResult(
        'grouped by quiz',
        {
          quizId: idString,
          aggregationFunction: { type: 'string', enum: [...AGGREGATION_FUNCTIONS] },
        },
        true,
      ),
    ],
    description:
      'One attempt (detailed; sessionId null for a zero attempt of includeQuizzes=all) or one aggregation function over a user or a quiz, with one number per requested result type, rounded to 2 decimals. Surveys have no score: nbGoodAnswers, goodAnswersPercent and percentile are null for an attempt on a survey. `id` is unique within its set.',
  },
  QuestionStatistic: statisticSchema(
    QUESTION_STATISTIC_FIELDS,
    'One question of a quiz of the quiz set, over the attempts counted (contract.md §12). `id` is unique within its set.',
  ),
  QuizStatistic: statisticSchema(
    QUIZ_STATISTIC_FIELDS,
    'One quiz of the quiz set, over the attempts counted (contract.md §12). `id` is unique within its set.',
  ),
  ItemAttribute: object(
    {
      itemType: { type: 'string', enum: ['user', 'quiz'] },
      itemId: idString,
      itemName: { type: 'string' },
      itemValue: {},
    },
    ['itemType', 'itemId', 'itemName', 'itemValue'],
  ),
  ...PAGE_SCHEMAS,
  ...PERSONAL_DATA_SCHEMAS,
  ...WEBHOOK_SCHEMAS,
};

// Generated from schema/schema.graphql by scripts/possible-types.mjs (npm run build): do not edit.

/**
 * Each union and interface of the service's GraphQL schema with the object types it may be: the
 * `possibleTypes` option of Apollo Client's InMemoryCache, so fragments on `DataSet`,
 * `DataSetItem` and `Question` read from the cache (contract.md §15).
 */
export const possibleTypes: { [supertype: string]: string[] } = {
  DataSet: [
    'ComputedResultPage',
    'QuestionStatisticPage',
    'QuizPage',
    'QuizStatisticPage',
    'UserGroupPage',
    'UserPage',
  ],
  DataSetItem: [
    'ComputedResult',
    'QuestionStatistic',
    'Quiz',
    'QuizStatistic',
    'User',
    'UserGroup',
  ],
  Question: [
    'FreeAnswerNumberQuestion',
    'FreeAnswerTextQuestion',
    'MultipleChoicesOneGoodAnswerQuestion',
    'MultipleChoicesSeveralGoodAnswersQuestion',
    'TrueFalseQuestion',
  ],
};

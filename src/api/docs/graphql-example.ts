/**
 * The example document the GraphQL IDEs open with in development: the typical flow of a client,
 * one named operation per step, each fed by the ids the previous one answered.
 */
export const EXAMPLE_DOCUMENT = `# The typical flow, one operation per step: run them in order
# with the run button (it lists them), copying the ids each one
# answers into the variables: after Sets, "quizSetId" and
# "userSetId" (its two dataSetIds); after Results, "dataSetId".
#
# A session's users are read by its teacher: log in (the key
# manager or the login page gives an access token) and add
# "Authorization": "Bearer <token>" to the headers.

# 1. The quizzes and the users of a session, as two data sets.
query Sets($sessionId: ID!) {
  quizzes: getQuizSet(sessionId: $sessionId) {
    dataSetId
    totalNumberOfItems
    items { ... on Quiz { id title tags } }
  }
  users: getUserSet(sessionId: $sessionId, numberOfItemsPerPage: 3) {
    dataSetId
    totalNumberOfItems
    items { ... on User { id firstName lastName } }
  }
}

# 2. Their results: each user's average, 3 users a page.
query Results($quizSetId: ID!, $userSetId: ID!) {
  getResults(
    quizSetId: $quizSetId
    userSetId: $userSetId
    groupBy: user
    aggregationFunctions: [average]
    resultTypes: [goodAnswersPercent, nbAnswers]
    numberOfItemsPerPage: 3
  ) {
    dataSetId
    numberOfPages
    totalNumberOfItems
    items { ... on ComputedResult { userId aggregationFunction goodAnswersPercent nbAnswers } }
  }
}

# 3. The next page of a data set (the results' dataSetId).
query NextPage($dataSetId: ID!) {
  getDataSetPage(dataSetId: $dataSetId, pageIndex: 2) {
    currentPageIndex
    numberOfPages
    items {
      ... on ComputedResult { userId aggregationFunction goodAnswersPercent nbAnswers }
      ... on User { id firstName lastName }
      ... on Quiz { id title }
    }
  }
}
`;

/**
 * The variables the example starts with: the first session of the demo data, so that Sets runs
 * as it opens. The ids of later steps exist only once their step ran: the document says which to
 * add, rather than a placeholder that the service would refuse as a bad id.
 */
export const EXAMPLE_VARIABLES: Readonly<Record<string, string>> = {
  sessionId: '1',
};

/** The header that carries the API key on /graphql. */
export const API_KEY_HEADER = 'X-Api-Key';

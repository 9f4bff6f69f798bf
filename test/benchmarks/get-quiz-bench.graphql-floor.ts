/**
 * The GraphQL floor of getQuiz: what Apollo Server costs over bare Express for the same reads,
 * run as the service runs it. Apollo Server over Express (the same integration), cache hints
 * off, documents executed by the service's own compiled executor (graphql-jit through Apollo's
 * gateway interface, compiled.executor.ts), over a schema written by hand for the fields the
 * benchmark asks for, with plain resolvers over objects made from the rows (the propositions'
 * JSON parsed, as any GraphQL answer must give a list). The reads are the second floor's
 * (quizReads: the key by its hash, then the quiz, its author, tags and questions; no count
 * write). Beside "floor, no count write", it says how close to REST a GraphQL answer through
 * Apollo Server, executed as the service executes it, comes on this machine.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import express, { type Request } from 'express';
import {
  GraphQLError,
  buildSchema,
  type GraphQLFieldResolver,
  type GraphQLInterfaceType,
  type GraphQLSchema,
} from 'graphql';
import mysql from 'mysql2/promise';
import { compiledGateway } from '../../src/api/graphql/execution/compiled.executor';
import { quizReads, type QuizReads, type QuizRows } from './get-quiz-bench.floor';

const TYPE_DEFS = `#graphql
type Query { getQuiz(quizId: ID!): Quiz }
type User { id: ID! firstName: String! lastName: String! pictureURL: String }
type Media { type: String! url: String! }
interface Question { position: Int! type: String! title: String! media: Media }
type TrueFalseQuestion implements Question { position: Int! type: String! title: String! media: Media }
type MultipleChoicesOneGoodAnswerQuestion implements Question {
  position: Int! type: String! title: String! media: Media propositions: [String!]!
}
type MultipleChoicesSeveralGoodAnswersQuestion implements Question {
  position: Int! type: String! title: String! media: Media propositions: [String!]!
}
type FreeAnswerTextQuestion implements Question {
  position: Int! type: String! title: String! media: Media tolerance: Int caseSensitive: Boolean
}
type FreeAnswerNumberQuestion implements Question {
  position: Int! type: String! title: String! media: Media tolerance: Int
}
type Quiz {
  id: ID! title: String! visibility: String! survey: Boolean! tags: [String!]!
  creationDate: String! lastChangeDate: String! nbQuestions: Int! author: User!
  questions: [Question!]!
}`;

interface FloorContext {
  req: Request;
}

function quizObject({ row, tags, questions }: QuizRows): Record<string, unknown> {
  return {
    id: row.id,
    title: row.title,
    visibility: row.visibility,
    survey: row.survey === 1,
    tags,
    creationDate: (row.creation_date as Date).toISOString(),
    lastChangeDate: (row.last_change_date as Date).toISOString(),
    nbQuestions: row.nb_questions,
    author: {
      id: row.author_id,
      firstName: row.first_name,
      lastName: row.last_name,
      pictureURL: row.picture_url,
    },
    questions: questions.map((q) => ({
      __typename: `${String(q.type)}Question`,
      position: q.position,
      type: q.type,
      title: q.title,
      media: q.media_type ? { type: q.media_type, url: q.media_url } : null,
      propositions: q.propositions ? (JSON.parse(String(q.propositions)) as string[]) : [],
      tolerance: q.tolerance,
      caseSensitive: q.case_sensitive === null ? null : q.case_sensitive === 1,
    })),
  };
}

const refused = (message: string, type: string) =>
  new GraphQLError(message, { extensions: { code: 'UNAUTHENTICATED', type } });

/** TYPE_DEFS with resolvers: getQuiz reads as the REST floor; a question's type is its object's. */
function floorSchema(reads: QuizReads): GraphQLSchema {
  const schema = buildSchema(TYPE_DEFS);
  const getQuiz: GraphQLFieldResolver<unknown, FloorContext, { quizId: string }> = async (
    _parent,
    args,
    { req },
  ) => {
    const presented =
      req.get('x-api-key') ?? (typeof req.query.apiKey === 'string' ? req.query.apiKey : '');
    if (!presented) throw refused('no API key', 'MissingParameterException');
    if ((await reads.keyOf(presented, req)) === undefined) {
      throw refused('unknown API key', 'UnauthorizedOperationException');
    }
    const found = await reads.quiz(Number(args.quizId));
    if (!found || found.row.visibility !== 'public') return null;
    return quizObject(found);
  };
  const field = schema.getQueryType()?.getFields().getQuiz;
  if (!field) throw new Error('the floor schema has no getQuiz');
  field.resolve = getQuiz as GraphQLFieldResolver<unknown, unknown>;
  (schema.getType('Question') as GraphQLInterfaceType).resolveType = (question) =>
    (question as { __typename: string }).__typename;
  return schema;
}

export async function startGraphQLFloor(
  uri: string,
  poolSize: number,
): Promise<{ url: string; close: () => Promise<void> }> {
  const pool = mysql.createPool({ uri, connectionLimit: poolSize, timezone: 'Z' });
  const server = new ApolloServer<FloorContext>({
    gateway: compiledGateway(floorSchema(quizReads(pool))),
    // The landing page answers GETs only; this floor is sent POSTs.
    plugins: [ApolloServerPluginCacheControlDisabled(), ApolloServerPluginLandingPageDisabled()],
  });
  await server.start();
  const app = express();
  app.use(
    '/graphql',
    express.json(),
    expressMiddleware(server, { context: ({ req }) => Promise.resolve({ req }) }),
  );
  const httpServer = http.createServer(app);
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`,
    close: async () => {
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
      await server.stop();
      await pool.end();
    },
  };
}

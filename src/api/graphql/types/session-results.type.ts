import { Field, ObjectType } from 'type-graphql';
import type { SessionResultsView } from '../../operations/results.operation';
import {
  ComputedResultPage,
  QuizPage,
  toDataSetObject,
  UserPage,
  type DataSetObject,
} from './data-set.type';
import type { RootFieldOutputs } from './root-field.outputs';

@ObjectType('SessionResults', {
  simpleResolvers: true,
  description:
    'The typical flow of the spec in one request: the user set and quiz set of a session, and their results.',
})
export class SessionResultsObject {
  @Field(() => UserPage)
  userSet!: DataSetObject;

  @Field(() => QuizPage)
  quizSet!: DataSetObject;

  @Field(() => ComputedResultPage)
  results!: DataSetObject;
}

export function toSessionResultsObject(view: SessionResultsView): SessionResultsObject {
  return {
    userSet: toDataSetObject(view.userSet),
    quizSet: toDataSetObject(view.quizSet),
    results: toDataSetObject(view.results),
  };
}

/** The root fields that answer with these types. */
export const SESSION_RESULTS_ROOT_FIELDS: RootFieldOutputs = {
  getSessionResults: { type: () => SessionResultsObject, from: toSessionResultsObject },
};

import DataLoader from 'dataloader';
import type { Loaders } from '../../context/loaders';
import type { RequestContext } from '../../context/request-context';
import type { ResultRow } from '../sets/data-set.types';
import { quizQuestionStatisticRows } from './statistics.service';
import { questionStatisticItems, type QuestionStatisticView } from './statistics.views';

/**
 * The question statistics of a quizStatistic set's quizzes (QuizStatistic.questions), batched
 * per request: the quizzes of a page cost one statement per set, at any page size (see
 * quizQuestionStatisticRows). The loader hangs on the request's loaders, so it lives and dies
 * with the request.
 */

type QuizOfSet = { dataSetId: number; quizId: number };

const LOADERS = new WeakMap<Loaders, DataLoader<QuizOfSet, QuestionStatisticView[], string>>();

function loaderOf(ctx: RequestContext): DataLoader<QuizOfSet, QuestionStatisticView[], string> {
  const known = LOADERS.get(ctx.loaders);
  if (known) return known;
  const loader = new DataLoader<QuizOfSet, QuestionStatisticView[], string>(
    async (keys) => {
      const bySet = new Map<number, number[]>();
      for (const { dataSetId, quizId } of keys) {
        const quizIds = bySet.get(dataSetId);
        if (quizIds) quizIds.push(quizId);
        else bySet.set(dataSetId, [quizId]);
      }
      const found = new Map<number, Map<number, ResultRow[]> | Error>();
      await Promise.all(
        [...bySet].map(async ([dataSetId, quizIds]) => {
          // A set whose sources are gone fails its own keys, not the others'.
          found.set(
            dataSetId,
            await quizQuestionStatisticRows(ctx, dataSetId, [...new Set(quizIds)]).catch(
              (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
            ),
          );
        }),
      );
      return keys.map(({ dataSetId, quizId }) => {
        const rows = found.get(dataSetId);
        return rows instanceof Error ? rows : questionStatisticItems(rows?.get(quizId) ?? []);
      });
    },
    { cacheKeyFn: ({ dataSetId, quizId }) => `${dataSetId}:${quizId}` },
  );
  LOADERS.set(ctx.loaders, loader);
  return loader;
}

/** The statistics of the questions of quiz `quizId` kept with quizStatistic set `dataSetId`. */
export function quizQuestionStatistics(
  ctx: RequestContext,
  dataSetId: number,
  quizId: number,
): Promise<QuestionStatisticView[]> {
  return loaderOf(ctx).load({ dataSetId, quizId });
}

import DataLoader from 'dataloader';
import type { Loaders } from '../../context/loaders';
import type { RequestContext } from '../../context/request-context';
import { toNumber } from '../../db/dialect';
import { membersOfQuizzes } from '../../db/sql/data-set.sql';
import { kindOf } from '../data-sets/data-set.kinds';
import type { ResultRow } from '../data-sets/data-set.types';
import { questionStatisticItems, type QuestionStatisticView } from './statistics.views';

/**
 * The question statistics a quizStatistic set keeps for its quizzes (QuizStatistic.questions),
 * batched per request: the quizzes of a page cost one statement per set, at any page size.
 * The loader hangs on the request's loaders, so it lives and dies with the request.
 */

type QuizOfSet = { dataSetId: number; quizId: number };

const LOADERS = new WeakMap<Loaders, DataLoader<QuizOfSet, QuestionStatisticView[], string>>();

function loaderOf(ctx: RequestContext): DataLoader<QuizOfSet, QuestionStatisticView[], string> {
  const known = LOADERS.get(ctx.loaders);
  if (known) return known;
  const kind = kindOf('questionStatistic');
  const loader = new DataLoader<QuizOfSet, QuestionStatisticView[], string>(
    async (keys) => {
      const bySet = new Map<number, number[]>();
      for (const { dataSetId, quizId } of keys) {
        const quizIds = bySet.get(dataSetId);
        if (quizIds) quizIds.push(quizId);
        else bySet.set(dataSetId, [quizId]);
      }
      const found = new Map<string, QuestionStatisticView[]>();
      await Promise.all(
        [...bySet].map(async ([dataSetId, quizIds]) => {
          const { sql, params } = membersOfQuizzes(
            ctx.db.dialect,
            kind.membersTable,
            kind.pageColumns,
            dataSetId,
            [...new Set(quizIds)],
          );
          // The write handle, as for pages: a set this instance has just made is read at once.
          const rows = await ctx.db.writeRows.rows<ResultRow>(sql, params);
          for (const [index, item] of questionStatisticItems(rows).entries()) {
            const key = `${dataSetId}:${toNumber(rows[index]?.quiz_id)}`;
            const list = found.get(key);
            if (list) list.push(item);
            else found.set(key, [item]);
          }
        }),
      );
      return keys.map(({ dataSetId, quizId }) => found.get(`${dataSetId}:${quizId}`) ?? []);
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

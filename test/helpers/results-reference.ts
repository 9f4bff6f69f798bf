import {
  add,
  compare,
  divInt,
  fraction,
  mul,
  round2,
  roundSqrt2,
  sub,
  type Fraction,
} from './exact-fractions';

/**
 * The reference of the results oracle (test/integration/results-oracle.contract.test.ts):
 * contract.md §7 in exact rational arithmetic (BigInt), from raw answers read back from the
 * database. Detailed results show the attempts a requester may see and the zeros of
 * includeQuizzes=all; aggregates are the aggregation of exactly those rows (nothing for an
 * anonymous requester, every attempt under LEGACY_OPEN_READS); surveys have no score.
 */

export const RESULT_TYPES = [
  'nbGoodAnswers',
  'goodAnswersPercent',
  'percentile',
  'nbAnswers',
  'duration',
] as const;
export type ResultType = (typeof RESULT_TYPES)[number];
export const FUNCTIONS = ['min', 'max', 'average', 'median', 'stddev', 'count'] as const;
export type Fn = (typeof FUNCTIONS)[number];

export interface RawAnswer {
  userId: number;
  quizId: number;
  sessionId: number;
  good: boolean | null;
  at: number;
}

export interface Facts {
  answers: RawAnswer[];
  nbQuestions: Map<number, number>;
  /** The quizzes that are surveys (quizzes.survey). */
  surveys: Set<number>;
  sessionOwner: Map<number, number>;
}

interface Attempt {
  userId: number;
  quizId: number;
  /** null: a zero attempt of includeQuizzes=all. */
  sessionId: number | null;
  /** null: no score (an attempt on a survey). */
  values: Record<ResultType, Fraction | null>;
}

export interface Request {
  users: number[];
  quizzes: number[];
  sessions: number[] | null;
  includeAll: boolean;
}

/** Whether a requester may see a real attempt in detail: in a session they own, or their own. */
export type Sees = (attempt: { userId: number; sessionId: number | null }) => boolean;

export function seenBy(facts: Facts, requesterId: number): Sees {
  return (attempt) =>
    attempt.userId === requesterId ||
    (attempt.sessionId !== null && facts.sessionOwner.get(attempt.sessionId) === requesterId);
}

/** LEGACY_OPEN_READS: aggregates count every attempt, as the legacy service did. */
export const seesAll: Sees = () => true;

/**
 * Every attempt of the request, each with its five values (contract §7 definitions): every real
 * attempt, seen or not, and with includeAll a zero for each (user, quiz) pair of the two sets
 * with no attempt the requester `sees` (seeing every attempt: no attempt at all). Surveys have
 * no score: null nbGoodAnswers, goodAnswersPercent and percentile, zeros included.
 */
function referenceAttempts(facts: Facts, request: Request, sees: Sees): Attempt[] {
  const users = new Set(request.users);
  const quizzes = new Set(request.quizzes);
  const groups = new Map<string, RawAnswer[]>();
  for (const answer of facts.answers) {
    if (!users.has(answer.userId) || !quizzes.has(answer.quizId)) continue;
    if (request.sessions && !request.sessions.includes(answer.sessionId)) continue;
    const key = `${answer.userId}/${answer.quizId}/${answer.sessionId}`;
    groups.set(key, [...(groups.get(key) ?? []), answer]);
  }
  const raw = [...groups.values()].map((answers) => {
    const times = answers.map((answer) => answer.at);
    return {
      userId: answers[0].userId,
      quizId: answers[0].quizId,
      sessionId: answers[0].sessionId as number | null,
      good: answers.filter((answer) => answer.good === true).length,
      count: answers.length,
      seconds: (Math.max(...times) - Math.min(...times)) / 1000,
    };
  });
  const real = [...raw];
  if (request.includeAll) {
    for (const userId of request.users) {
      for (const quizId of request.quizzes) {
        if (!real.some((a) => a.userId === userId && a.quizId === quizId && sees(a))) {
          raw.push({ userId, quizId, sessionId: null, good: 0, count: 0, seconds: 0 });
        }
      }
    }
  }
  return raw.map((attempt) => {
    const onQuiz = raw.filter((other) => other.quizId === attempt.quizId);
    const below = onQuiz.filter((other) => other.good < attempt.good).length;
    const same = onQuiz.filter((other) => other.good === attempt.good).length;
    const questions = facts.nbQuestions.get(attempt.quizId) as number;
    const scored = !facts.surveys.has(attempt.quizId);
    return {
      userId: attempt.userId,
      quizId: attempt.quizId,
      sessionId: attempt.sessionId,
      values: {
        nbGoodAnswers: scored ? fraction(BigInt(attempt.good)) : null,
        goodAnswersPercent: !scored
          ? null
          : questions > 0
            ? fraction(100n * BigInt(attempt.good), BigInt(questions))
            : fraction(0n),
        percentile: scored
          ? fraction(100n * BigInt(2 * below + same), BigInt(2 * onQuiz.length))
          : null,
        nbAnswers: fraction(BigInt(attempt.count)),
        duration: fraction(BigInt(Math.round(attempt.seconds))),
      },
    };
  });
}

/**
 * The rows detailed results show a requester who `sees` some attempts: those attempts and every
 * zero (each stands for a pair without a visible attempt), ranked among all the attempts.
 */
function visibleAttempts(facts: Facts, request: Request, sees: Sees): Attempt[] {
  return referenceAttempts(facts, request, sees).filter(
    (attempt) => attempt.sessionId === null || sees(attempt),
  );
}

/** A value on the wire: rounded, or null. */
const rounded = (value: Fraction | null) => (value === null ? null : round2(value));

/**
 * One aggregation function over values, rounded: count counts them all (nulls included: an
 * attempt without a score is still an attempt); the others ignore nulls and are null on nothing.
 */
function aggregate(fn: Fn, all: (Fraction | null)[]): number | null {
  if (fn === 'count') return all.length;
  const values = all.filter((value): value is Fraction => value !== null);
  if (values.length === 0) return null;
  const sorted = [...values].sort(compare);
  const sum = values.reduce(add, fraction(0n));
  const mean = divInt(sum, values.length);
  switch (fn) {
    case 'min':
      return round2(sorted[0]);
    case 'max':
      return round2(sorted[sorted.length - 1]);
    case 'average':
      return round2(mean);
    case 'median': {
      const middle = Math.floor((sorted.length - 1) / 2);
      return sorted.length % 2 === 1
        ? round2(sorted[middle])
        : round2(divInt(add(sorted[middle], sorted[middle + 1]), 2));
    }
    case 'stddev': {
      const squares = values.map((value) => mul(sub(value, mean), sub(value, mean)));
      return roundSqrt2(divInt(squares.reduce(add, fraction(0n)), values.length));
    }
  }
}

export type Item = Record<string, string | number | null>;

/**
 * Detailed items the requester may see: its sessions' attempts, its own, and every zero (each
 * stands for a pair without a visible attempt).
 */
export function referenceDetailed(
  facts: Facts,
  request: Request,
  types: readonly ResultType[],
  requesterId: number,
): Item[] {
  const visible = visibleAttempts(facts, request, seenBy(facts, requesterId));
  visible.sort(
    (a, b) => a.userId - b.userId || a.quizId - b.quizId || (a.sessionId ?? 0) - (b.sessionId ?? 0),
  );
  return visible.map((attempt, index) => ({
    id: String(index + 1),
    userId: String(attempt.userId),
    quizId: String(attempt.quizId),
    sessionId: attempt.sessionId === null ? null : String(attempt.sessionId),
    ...Object.fromEntries(types.map((type) => [type, rounded(attempt.values[type])])),
  }));
}

/**
 * One item per (member of the grouping set, function), in member then function order, over the
 * requester scope: exactly the rows detailed results would show a requester who `sees` some
 * attempts; null (an anonymous requester): none at all, not even zeros.
 */
export function referenceAggregated(
  facts: Facts,
  request: Request,
  types: readonly ResultType[],
  functions: readonly Fn[],
  groupBy: 'user' | 'quiz',
  sees: Sees | null,
): Item[] {
  const attempts = sees ? visibleAttempts(facts, request, sees) : [];
  const members = [...(groupBy === 'user' ? request.users : request.quizzes)].sort((a, b) => a - b);
  const items: Item[] = [];
  for (const member of members) {
    const own = attempts.filter(
      (attempt) => (groupBy === 'user' ? attempt.userId : attempt.quizId) === member,
    );
    for (const fn of functions) {
      items.push({
        id: String(items.length + 1),
        [groupBy === 'user' ? 'userId' : 'quizId']: String(member),
        aggregationFunction: fn,
        ...Object.fromEntries(
          types.map((type) => [
            type,
            aggregate(
              fn,
              own.map((attempt) => attempt.values[type]),
            ),
          ]),
        ),
      });
    }
  }
  return items;
}

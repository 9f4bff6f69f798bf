/**
 * Item analysis (contract.md §12, with §7's visibility and rounding) written from the words of
 * the contract, in exact rational arithmetic (BigInt), for suites that compare
 * getQuestionStatistics and getQuizStatistics with it. It reads raw answers and quizzes, never
 * anything the service computed, and scores answers itself.
 */

import {
  add,
  compare,
  div,
  fraction,
  int,
  mul,
  round2,
  roundSqrt2,
  sub,
  type Fraction,
} from './exact-fractions';

export { ties, type Fraction } from './exact-fractions';

export type QuestionType =
  | 'MultipleChoicesOneGoodAnswer'
  | 'MultipleChoicesSeveralGoodAnswers'
  | 'TrueFalse'
  | 'FreeAnswerText'
  | 'FreeAnswerNumber';

export interface RefQuestion {
  title: string;
  type: QuestionType;
  /** Number of propositions of the multiple-choice types, else null. */
  nbPropositions: number | null;
  /** The good answer as stored (parsed JSON); null in surveys. */
  goodAnswer: unknown;
  caseSensitive: boolean;
}

export interface RefQuiz {
  id: number;
  survey: boolean;
  /** In position order. */
  questions: RefQuestion[];
}

export interface RefAnswer {
  userId: number;
  quizId: number;
  sessionId: number;
  position: number;
  /** The stored value (parsed JSON). */
  value: unknown;
}

const isMultipleChoice = (type: QuestionType) =>
  type === 'MultipleChoicesOneGoodAnswer' || type === 'MultipleChoicesSeveralGoodAnswers';

/** §4 scoring, for the values the suites write (tolerance 0): null on a survey question. */
export function scoreOf(question: RefQuestion, value: unknown): boolean | null {
  const good = question.goodAnswer;
  if (good === null || good === undefined) return null;
  switch (question.type) {
    case 'MultipleChoicesSeveralGoodAnswers': {
      const chosen = new Set(value as number[]);
      const wanted = new Set(good as number[]);
      return chosen.size === wanted.size && [...chosen].every((index) => wanted.has(index));
    }
    case 'FreeAnswerText': {
      const fold = (text: unknown) =>
        question.caseSensitive ? String(text).trim() : String(text).trim().toLowerCase();
      return fold(value) === fold(good);
    }
    case 'FreeAnswerNumber':
      return Number(value) === Number(good);
    default:
      return value === good;
  }
}

export interface Scope {
  users: number[];
  quizzes: number[];
  /** null: every session. */
  sessions: number[] | null;
  requesterId: number;
  sessionOwner: ReadonlyMap<number, number>;
  /**
   * SURVEY_MIN_RESPONSES (§14.1): a survey question's choiceCounts are null when fewer attempts
   * than this count.
   */
  surveyMinResponses: number;
}

/** One attempt: its answers by question position. */
type Attempt = Map<number, RefAnswer>;

/**
 * The counted attempts of each quiz of the scope: answers of its users on its quizzes, in its
 * sessions, grouped by (user, quiz, session), kept when the requester may see them in detail
 * (§7: a session the requester owns, or the requester's own attempt).
 */
export function countedAttempts(answers: RefAnswer[], scope: Scope): Map<number, Attempt[]> {
  const users = new Set(scope.users);
  const byKey = new Map<string, Attempt>();
  for (const answer of answers) {
    if (!users.has(answer.userId) || !scope.quizzes.includes(answer.quizId)) continue;
    if (scope.sessions && !scope.sessions.includes(answer.sessionId)) continue;
    const visible =
      answer.userId === scope.requesterId ||
      scope.sessionOwner.get(answer.sessionId) === scope.requesterId;
    if (!visible) continue;
    const key = `${answer.quizId}/${answer.userId}/${answer.sessionId}`;
    const attempt = byKey.get(key) ?? new Map<number, RefAnswer>();
    attempt.set(answer.position, answer);
    byKey.set(key, attempt);
  }
  const byQuiz = new Map<number, Attempt[]>(scope.quizzes.map((quizId) => [quizId, []]));
  for (const [key, attempt] of byKey) byQuiz.get(Number(key.split('/')[0]))?.push(attempt);
  return byQuiz;
}

export type StatisticItem = Record<string, unknown>;

/** 0/1 score of every question of a quiz, per attempt (unanswered = 0). */
function scores(quiz: RefQuiz, attempts: Attempt[]): number[][] {
  return attempts.map((attempt) =>
    quiz.questions.map((question, position) => {
      const answer = attempt.get(position);
      return answer && scoreOf(question, answer.value) === true ? 1 : 0;
    }),
  );
}

/** n² × population covariance of two series: nΣab − ΣaΣb, exact. */
function scaledCovariance(a: number[], b: number[]): bigint {
  const n = BigInt(a.length);
  const sum = (values: number[]) => values.reduce((total, value) => total + BigInt(value), 0n);
  const products = a.reduce((total, value, i) => total + BigInt(value * (b[i] as number)), 0n);
  return n * products - sum(a) * sum(b);
}

/**
 * The questionStatistic fields of one quiz's questions (without id), in position order; a
 * survey's choice counts only from `surveyMinResponses` attempts on.
 */
export function questionStatistics(
  quiz: RefQuiz,
  attempts: Attempt[],
  surveyMinResponses: number,
): StatisticItem[] {
  const table = scores(quiz, attempts);
  const totals = table.map((row) => row.reduce((sum, x) => sum + x, 0));
  const n = attempts.length;
  return quiz.questions.map((question, position) => {
    const answers = attempts.flatMap((attempt) => attempt.get(position) ?? []);
    const x = table.map((row) => row[position] as number);
    const y = totals.map((total, i) => total - (x[i] as number));
    let facility: number | null = null;
    let discrimination: number | null = null;
    if (!quiz.survey && n > 0) {
      facility = round2(fraction(100n * BigInt(x.reduce((sum, v) => sum + v, 0)), BigInt(n)));
      const varX = scaledCovariance(x, x);
      const varY = scaledCovariance(y, y);
      if (varX !== 0n && varY !== 0n) {
        // r = cov / √(var x · var y): its square is rational, its sign is the covariance's.
        const cov = scaledCovariance(x, y);
        discrimination = roundSqrt2(fraction(cov * cov, varX * varY), cov < 0n);
      }
    }
    let choiceCounts: number[] | null = null;
    if (isMultipleChoice(question.type) && !(quiz.survey && n < surveyMinResponses)) {
      choiceCounts = Array.from({ length: question.nbPropositions ?? 0 }, () => 0);
      for (const answer of answers) {
        const chosen = Array.isArray(answer.value) ? answer.value : [answer.value];
        for (const index of chosen as number[]) (choiceCounts[index] as number) += 1;
      }
    }
    return {
      quizId: String(quiz.id),
      questionIndex: position,
      title: question.title,
      type: question.type,
      nbAttempts: n,
      nbAnswers: answers.length,
      facility,
      discrimination,
      choiceCounts,
    };
  });
}

/** The quizStatistic fields of one quiz (without id). */
export function quizStatistic(quiz: RefQuiz, attempts: Attempt[]): StatisticItem {
  const n = attempts.length;
  const k = quiz.questions.length;
  const none = { mean: null, median: null, stddev: null, cronbachAlpha: null };
  if (quiz.survey) return { quizId: String(quiz.id), nbAttempts: n, ...none, histogram: null };
  const table = scores(quiz, attempts);
  const totals = table.map((row) => row.reduce((sum, x) => sum + x, 0));
  const histogram = Array.from({ length: 10 }, () => 0);
  // [10i, 10i+10) by goodAnswersPercent = 100 T / k, 100 in the last: floor(10 T / k), at most 9.
  for (const total of totals) (histogram[Math.min(9, Math.floor((10 * total) / k))] as number) += 1;
  if (n === 0) return { quizId: String(quiz.id), nbAttempts: 0, ...none, histogram };
  const percents = totals.map((total) => fraction(100n * BigInt(total), BigInt(k))).sort(compare);
  const mean = div(percents.reduce(add, int(0)), int(n));
  const middle = Math.floor((n - 1) / 2);
  const median =
    n % 2 === 1
      ? (percents[middle] as Fraction)
      : div(add(percents[middle] as Fraction, percents[middle + 1] as Fraction), int(2));
  const variance = div(
    percents.map((p) => mul(sub(p, mean), sub(p, mean))).reduce(add, int(0)),
    int(n),
  );
  let cronbachAlpha: number | null = null;
  const varT = scaledCovariance(totals, totals);
  if (n >= 2 && k >= 2 && varT !== 0n) {
    // Every variance scaled by n² alike, so their ratio is the ratio of the variances.
    const itemVariances = quiz.questions.reduce((sum, _question, q) => {
      const x = table.map((row) => row[q] as number);
      return sum + scaledCovariance(x, x);
    }, 0n);
    cronbachAlpha = round2(
      mul(fraction(BigInt(k), BigInt(k - 1)), fraction(varT - itemVariances, varT)),
    );
  }
  return {
    quizId: String(quiz.id),
    nbAttempts: n,
    mean: round2(mean),
    median: round2(median),
    stddev: roundSqrt2(variance, false),
    cronbachAlpha,
    histogram,
  };
}

/** Both operations' items for a scope: ordered by (quizId, questionIndex) and by quizId, ids 1.. */
export function referenceStatistics(
  quizzes: ReadonlyMap<number, RefQuiz>,
  answers: RefAnswer[],
  scope: Scope,
): { questions: StatisticItem[]; quizzes: StatisticItem[] } {
  const attempts = countedAttempts(answers, scope);
  const ordered = [...scope.quizzes].sort((a, b) => a - b).map((id) => quizzes.get(id) as RefQuiz);
  const questions = ordered.flatMap((quiz) =>
    questionStatistics(quiz, attempts.get(quiz.id) ?? [], scope.surveyMinResponses),
  );
  return {
    questions: questions.map((item, index) => ({ id: String(index + 1), ...item })),
    quizzes: ordered.map((quiz, index) => ({
      id: String(index + 1),
      ...quizStatistic(quiz, attempts.get(quiz.id) ?? []),
    })),
  };
}

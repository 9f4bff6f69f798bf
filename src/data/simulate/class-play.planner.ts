import type { NewAnswer, Question } from '@quiz-results/client';
import { Random, Stream } from '../generate/random-streams';

/**
 * The plan of a simulated class (class.simulator.ts): when each pupil answers each question of
 * the quiz, with what, and which answers they correct later. Deterministic: the same questions,
 * pupils, duration and seed give the same plan, so a class played again (a restart) sends the
 * same answers with the same times, and the service keeps what it already stored.
 */

/** One answer of the plan. */
export interface PlannedAnswer {
  /** Position of the pupil in the class. */
  pupil: number;
  userId: string;
  questionIndex: number;
  /** Milliseconds after the start of the class. */
  atMs: number;
  answer: NewAnswer['answer'];
  /** Whether it is known to be wrong (the requester sees the good answers of quizzes they wrote). */
  wrong: boolean;
  /** Replaces the pupil's earlier answer to the same question. */
  correction: boolean;
}

export interface ClassPlanInput {
  questions: readonly Question[];
  pupilIds: readonly string[];
  seconds: number;
  seed: number;
}

/** How often a pupil changes an answer a few seconds after giving it. */
const CORRECTION_CHANCE = 0.08;
/** A correction comes 2 to 8 s after the answer: always in a later whole second, as on the wire. */
const CORRECTION_DELAY_MS = { min: 2000, max: 8000 };
const WRONG_TEXTS = ['I do not know', 'maybe', 'no idea', '?'];

type Value = NewAnswer['answer'];

/** Another index than `index` among `count`. */
function otherIndex(index: number, count: number, random: Random): number {
  return count < 2 ? index : (index + random.int(1, count - 1)) % count;
}

/** A wrong answer to a question whose good answer is known. */
function wrongValue(question: Question, random: Random): Value {
  switch (question.type) {
    case 'MultipleChoicesOneGoodAnswer':
      return otherIndex(question.goodAnswer ?? 0, question.propositions.length, random);
    case 'MultipleChoicesSeveralGoodAnswers': {
      // The good set with one proposition added or removed.
      const set = new Set(question.goodAnswer ?? []);
      const flip = random.int(0, question.propositions.length - 1);
      if (set.has(flip)) set.delete(flip);
      else set.add(flip);
      return [...set].sort((a, b) => a - b);
    }
    case 'TrueFalse':
      return !question.goodAnswer;
    case 'FreeAnswerText':
      return random.pick(WRONG_TEXTS.filter((text) => text !== question.goodAnswer));
    case 'FreeAnswerNumber': {
      // Far outside any tolerance (30% at most), and within 8 digits.
      const good = Number(question.goodAnswer ?? 0);
      return Math.abs(good) > 1000 ? Math.round(good / 2) : Math.round(good) + 1000;
    }
  }
}

/** Any well-formed answer: for a survey, or a quiz whose good answers the requester cannot see. */
function anyValue(question: Question, random: Random): Value {
  switch (question.type) {
    case 'MultipleChoicesOneGoodAnswer':
      return random.int(0, question.propositions.length - 1);
    case 'MultipleChoicesSeveralGoodAnswers': {
      const count = question.propositions.length;
      const picked = [...Array(count).keys()].filter(() => random.chance(0.4));
      return picked.length > 0 ? picked : [random.int(0, count - 1)];
    }
    case 'TrueFalse':
      return random.chance(0.5);
    case 'FreeAnswerText':
      return random.pick(['yes', 'no', 'perhaps', 'blue', 'forty-two']);
    case 'FreeAnswerNumber':
      return random.int(0, 100);
  }
}

/** What a pupil of skill `skill` (chance of a good answer) answers. */
function pupilValue(
  question: Question,
  skill: number,
  random: Random,
): { value: Value; wrong: boolean } {
  if (question.goodAnswer === undefined) return { value: anyValue(question, random), wrong: false };
  return random.chance(skill)
    ? { value: question.goodAnswer, wrong: false }
    : { value: wrongValue(question, random), wrong: true };
}

/** A second answer, different from the first: the good one after a wrong one, else another. */
function correctedValue(
  question: Question,
  first: { value: Value; wrong: boolean },
  random: Random,
): { value: Value; wrong: boolean } | null {
  if (first.wrong && question.goodAnswer !== undefined) {
    return { value: question.goodAnswer, wrong: false };
  }
  const same = JSON.stringify(first.value);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const known = question.goodAnswer !== undefined;
    const value = known ? wrongValue(question, random) : anyValue(question, random);
    if (JSON.stringify(value) !== same) return { value, wrong: known };
  }
  return null;
}

/** One pupil's answers: every question once, in order, spread over their share of the class. */
function planPupil(input: ClassPlanInput, pupil: number, durationMs: number): PlannedAnswer[] {
  const random = new Random(input.seed, Stream.ClassPlay, pupil);
  const userId = input.pupilIds[pupil] as string;
  const skill = 0.55 + 0.4 * random.next();
  // Fast pupils finish early; the slowest use the whole class.
  const pace = 0.6 + 0.4 * random.next();
  // Think times: a shorter start, then one random gap before each next question.
  const gaps = input.questions.map((_, index) => (index === 0 ? 0.5 : 1) * (0.5 + random.next()));
  const total = gaps.reduce((sum, gap) => sum + gap, 0);
  const planned: PlannedAnswer[] = [];
  let elapsed = 0;
  input.questions.forEach((question, questionIndex) => {
    elapsed += gaps[questionIndex] as number;
    const atMs = Math.round((elapsed / total) * durationMs * pace);
    const first = pupilValue(question, skill, random);
    const base = { pupil, userId, questionIndex };
    planned.push({ ...base, atMs, answer: first.value, wrong: first.wrong, correction: false });
    if (!random.chance(CORRECTION_CHANCE)) return;
    const correctedAt = atMs + random.int(CORRECTION_DELAY_MS.min, CORRECTION_DELAY_MS.max);
    const second = correctedValue(question, first, random);
    if (second === null || correctedAt > durationMs) return;
    planned.push({
      ...base,
      atMs: correctedAt,
      answer: second.value,
      wrong: second.wrong,
      correction: true,
    });
  });
  return planned;
}

/** Every answer of the class, by time (a pupil's correction always after their first answer). */
export function planClass(input: ClassPlanInput): PlannedAnswer[] {
  const durationMs = Math.max(0, input.seconds) * 1000;
  return input.pupilIds
    .flatMap((_, pupil) => planPupil(input, pupil, durationMs))
    .sort((a, b) => a.atMs - b.atMs || a.pupil - b.pupil || a.questionIndex - b.questionIndex);
}

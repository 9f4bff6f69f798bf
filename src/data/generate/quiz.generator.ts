import {
  QUESTION_TYPES,
  type QuestionType,
  type ScorableQuestion,
} from '../../domain/questions/question-types';
import { scoreAnswer } from '../../domain/questions/scoring';
import type { ImportQuestion, ImportQuiz } from '../import/import-document';
import { dateText, quizRef, userRef, type World } from './generation-world';
import { Random, Stream } from './random-streams';
import {
  COUNTRIES,
  NUMBER_WORDS,
  OTHER_CITIES,
  SURVEY_COMMENTS,
  THEMES,
  type Theme,
} from './vocabulary.data';

/**
 * Quizzes of the two themes (and surveys) with their questions, and the answers pupils give:
 * each answer is chosen good or wrong, and the scoring module itself confirms it is.
 */

export interface GeneratedQuestion {
  doc: ImportQuestion;
  /** What scoreAnswer needs; goodAnswer null in surveys. */
  scorable: ScorableQuestion;
  /** Plausible wrong texts for FreeAnswerText questions. */
  wrongTexts: readonly string[];
}

export interface GeneratedQuiz {
  doc: ImportQuiz;
  questions: GeneratedQuestion[];
}

function question(
  type: QuestionType,
  title: string,
  goodAnswer: ImportQuestion['goodAnswer'],
  extra: Partial<ImportQuestion> = {},
  wrongTexts: readonly string[] = [],
): GeneratedQuestion {
  const doc: ImportQuestion = { title, type, ...extra, goodAnswer };
  return {
    doc,
    wrongTexts,
    scorable: {
      type,
      goodAnswer: goodAnswer === undefined ? null : (goodAnswer as ScorableQuestion['goodAnswer']),
      tolerance: extra.tolerance ?? null,
      caseSensitive: extra.caseSensitive ?? null,
      nbPropositions: extra.propositions?.length ?? null,
    },
  };
}

function mathQuestion(type: QuestionType, random: Random): GeneratedQuestion {
  switch (type) {
    case 'MultipleChoicesOneGoodAnswer': {
      const a = random.int(2, 12);
      const b = random.int(2, 12);
      const product = a * b;
      const options = new Set([product]);
      for (const candidate of random.shuffle([
        product + 1,
        product - 1,
        a * (b + 1),
        (a + 1) * b,
        product + 10,
        product - a,
      ])) {
        if (options.size < 4 && candidate > 0) options.add(candidate);
      }
      const propositions = random.shuffle([...options]);
      return question(type, `What is ${a} × ${b}?`, propositions.indexOf(product), {
        propositions: propositions.map(String),
      });
    }
    case 'MultipleChoicesSeveralGoodAnswers': {
      const divisor = random.int(2, 9);
      const numbers = new Set<number>();
      while (numbers.size < 5) numbers.add(random.int(10, 99));
      const propositions = [...numbers];
      if (!propositions.some((n) => n % divisor === 0)) {
        let multiple = divisor * random.int(2, 11);
        while (numbers.has(multiple)) multiple += divisor;
        propositions[random.int(0, 4)] = multiple;
      }
      const good = propositions.flatMap((n, index) => (n % divisor === 0 ? [index] : []));
      return question(type, `Which of these numbers are multiples of ${divisor}?`, good, {
        propositions: propositions.map(String),
      });
    }
    case 'TrueFalse': {
      const a = random.int(10, 99);
      const b = random.int(10, 99);
      const shown = random.chance(0.5) ? a + b : a + b + random.pick([-10, -2, -1, 1, 2, 10]);
      return question(type, `${a} + ${b} = ${shown}`, shown === a + b);
    }
    case 'FreeAnswerNumber': {
      const a = random.int(3, 99);
      const divisor = random.pick([2, 4]);
      return question(type, `What is ${a} ÷ ${divisor}?`, a / divisor, {
        tolerance: random.chance(0.7) ? 0 : 5,
      });
    }
    case 'FreeAnswerText': {
      const n = random.int(1, 20);
      return question(type, `Write ${n} in words`, NUMBER_WORDS[n], { tolerance: 20 }, [
        NUMBER_WORDS[n === 20 ? 12 : n + 1] as string,
        NUMBER_WORDS[n <= 1 ? 7 : n - 1] as string,
        'I do not know',
      ]);
    }
  }
}

function geographyQuestion(type: QuestionType, random: Random): GeneratedQuestion {
  const [country, capital, population] = random.pick(COUNTRIES);
  const otherCapitals = COUNTRIES.map((entry) => entry[1]).filter((city) => city !== capital);
  switch (type) {
    case 'MultipleChoicesOneGoodAnswer': {
      const propositions = random.shuffle([capital, ...random.sample(otherCapitals, 3)]);
      return question(type, `What is the capital of ${country}?`, propositions.indexOf(capital), {
        propositions,
      });
    }
    case 'MultipleChoicesSeveralGoodAnswers': {
      const capitals = random.sample(otherCapitals, random.int(1, 3));
      const propositions = random.shuffle([
        ...capitals,
        ...random.sample(OTHER_CITIES, 5 - capitals.length),
      ]);
      const good = propositions.flatMap((city, index) => (capitals.includes(city) ? [index] : []));
      return question(type, 'Which of these cities are capitals?', good, {
        propositions,
        media: random.chance(0.3)
          ? { type: 'image', url: `https://media.generated.test/maps/${random.int(1, 40)}.png` }
          : null,
      });
    }
    case 'TrueFalse': {
      const shown = random.chance(0.5) ? capital : random.pick(otherCapitals);
      return question(type, `${shown} is the capital of ${country}`, shown === capital);
    }
    case 'FreeAnswerNumber':
      return question(type, `Population of ${country}, in millions?`, population, {
        tolerance: random.pick([20, 30]),
      });
    case 'FreeAnswerText': {
      const caseSensitive = random.chance(0.15);
      return question(
        type,
        `Capital of ${country}?`,
        capital,
        caseSensitive ? { caseSensitive: true, tolerance: 0 } : { tolerance: 20 },
        random.sample(otherCapitals, 3),
      );
    }
  }
}

function surveyQuestion(type: QuestionType, round: number): GeneratedQuestion {
  const generated = surveyQuestionOfType(type);
  // Long surveys ask the five questions again, about the next part of the course.
  if (round > 0) generated.doc.title = `${generated.doc.title} (part ${round + 1})`;
  return generated;
}

function surveyQuestionOfType(type: QuestionType): GeneratedQuestion {
  switch (type) {
    case 'MultipleChoicesOneGoodAnswer':
      return question(type, 'How did you find this quiz?', undefined, {
        propositions: ['Too easy', 'Just right', 'Too hard'],
      });
    case 'MultipleChoicesSeveralGoodAnswers':
      return question(type, 'Which topics would you like to revise?', undefined, {
        propositions: ['Multiplication', 'Fractions', 'Capitals', 'Maps', 'Number words'],
      });
    case 'TrueFalse':
      return question(type, 'I would like more quizzes like this one', undefined);
    case 'FreeAnswerNumber':
      return question(type, 'How many minutes did you spend on homework yesterday?', undefined);
    case 'FreeAnswerText':
      return question(type, 'What did you learn today?', undefined);
  }
}

function isGood(generated: GeneratedQuestion, value: unknown): boolean {
  return scoreAnswer(generated.scorable, value) === true;
}

/** A value a pupil could give, scored good (true) or wrong (false) by the scoring module itself. */
export function answerValue(
  generated: GeneratedQuestion,
  wantGood: boolean,
  random: Random,
): unknown {
  const { scorable } = generated;
  const good = scorable.goodAnswer;
  const count = scorable.nbPropositions ?? 0;
  if (good === null) return surveyAnswer(scorable.type, count, random);
  if (wantGood) {
    // Now and then the good answer as a pupil types it: other case, decimal comma, a typo.
    const variants: unknown[] = [];
    if (typeof good === 'string') variants.push(good.toLowerCase(), ` ${good}`, good.slice(0, -1));
    if (typeof good === 'number' && scorable.type === 'FreeAnswerNumber')
      variants.push(String(good).replace('.', ','));
    const variant = random.chance(0.3) && variants.length > 0 ? random.pick(variants) : undefined;
    return variant !== undefined && isGood(generated, variant) ? variant : good;
  }
  const candidates: unknown[] = [];
  switch (scorable.type) {
    case 'MultipleChoicesOneGoodAnswer':
      candidates.push((Number(good) + random.int(1, count - 1)) % count);
      break;
    case 'MultipleChoicesSeveralGoodAnswers': {
      // The good set with one proposition added or removed.
      const flip = random.int(0, count - 1);
      const set = new Set(good as number[]);
      if (set.has(flip)) set.delete(flip);
      else set.add(flip);
      candidates.push([...set].sort((x, y) => x - y));
      break;
    }
    case 'TrueFalse':
      candidates.push(!good);
      break;
    case 'FreeAnswerNumber': {
      const number = Number(good);
      candidates.push(
        Math.round(number * random.pick([1.5, 2, 0.5]) + random.int(1, 9)),
        number + 1000,
      );
      break;
    }
    case 'FreeAnswerText':
      candidates.push(random.pick(generated.wrongTexts), ...generated.wrongTexts, 'I do not know');
      break;
  }
  const wrong = candidates.find((candidate) => !isGood(generated, candidate));
  if (wrong === undefined) throw new Error(`no wrong answer found for "${generated.doc.title}"`);
  return wrong;
}

function surveyAnswer(type: QuestionType, count: number, random: Random): unknown {
  switch (type) {
    case 'MultipleChoicesOneGoodAnswer':
      return random.int(0, count - 1);
    case 'MultipleChoicesSeveralGoodAnswers':
      return Array.from({ length: count }, (_, index) => index).filter(() => random.chance(0.4));
    case 'TrueFalse':
      return random.chance(0.6);
    case 'FreeAnswerNumber':
      return random.int(0, 90);
    case 'FreeAnswerText':
      return random.pick(SURVEY_COMMENTS);
  }
}

export function makeQuiz(world: World, index: number): GeneratedQuiz {
  const random = new Random(world.seed, Stream.Quizzes, index);
  const theme: Theme = random.chance(0.5) ? 'math' : 'geography';
  // Quiz 8 of every 25 is a survey: a few, at fixed places whatever the seed.
  const survey = index % 25 === 7;
  const roll = random.next();
  const visibility = roll < 0.8 ? 'public' : roll < 0.92 ? 'private' : 'draft';
  const questions = Array.from({ length: world.perQuiz }, (_, position) => {
    const type = QUESTION_TYPES[(index + position) % QUESTION_TYPES.length] as QuestionType;
    const generated = survey
      ? surveyQuestion(type, Math.floor(position / QUESTION_TYPES.length))
      : theme === 'math'
        ? mathQuestion(type, random)
        : geographyQuestion(type, random);
    if (!generated.doc.media && random.chance(0.05)) {
      generated.doc.media = {
        type: 'image',
        url: `https://media.generated.test/q${index + 1}/${position + 1}.png`,
      };
    }
    return generated;
  });
  const created = world.start + random.int(0, 60 * 24 - 1) * 3_600_000;
  const changed = created + random.int(0, 20 * 24) * 3_600_000;
  const title = random.pick(THEMES[theme].titles);
  return {
    questions,
    doc: {
      ref: quizRef(index),
      author: userRef(random.int(0, world.teacherCount - 1)),
      title: `${survey ? 'Feedback: ' : ''}${title} #${index + 1}`,
      visibility,
      survey,
      tags: [
        theme,
        ...random.sample(
          THEMES[theme].tags.filter((tag) => tag !== theme),
          random.int(1, 3),
        ),
      ],
      defaultDuration: random.chance(0.8)
        ? `${Math.max(1, Math.round(world.perQuiz / 2))}:00`
        : null,
      creationDate: dateText(created),
      lastChangeDate: dateText(changed),
      questions: questions.map((generated) => generated.doc),
    },
  };
}

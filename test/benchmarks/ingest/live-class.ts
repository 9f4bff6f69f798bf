import { setTimeout as sleep } from 'node:timers/promises';
import { makeSession, type Fixture } from './ingest-fixture';
import {
  GENERATE,
  LIVE_JITTER_MS,
  LIVE_PUPILS,
  LIVE_THINK_MS,
  QUIZZES_PER_SESSION,
} from './ingest-settings';
import type { AnswerKey, Sent, Sink } from './ingest-sinks';

/**
 * A class playing a session of the live phase: its pupils answer the session's questions one
 * after the other, each after a think time of a few seconds, and the classroom app sends about
 * once a second one addAnswers batch with the answers given since its last one.
 */

/** A small seeded generator (mulberry32), so that a run's classes play alike from run to run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface LiveSession {
  id: number;
  /** Its pupils: their index among the fixture's pupils. */
  pupils: number[];
  /** Its questions in the order the pupils answer them (its quizzes one after the other). */
  questions: { quizId: number; question: Fixture['quizzes'][number]['questions'][number] }[];
}

/**
 * How many quizzes a session plays: enough questions that its fastest pupil does not run out
 * within `seconds`.
 */
export function quizzesPerSession(seconds: number): number {
  const answers = Math.ceil((seconds * 1000) / LIVE_THINK_MS.min) + 1;
  return Math.min(QUIZZES_PER_SESSION, Math.ceil(answers / GENERATE.questions));
}

/**
 * Session `index` of a run: LIVE_PUPILS pupils attending (the next ones of the fixture, session
 * after session), `quizzes` consecutive quizzes of the fixture (starting further on each time).
 */
export async function makeLiveSession(
  url: string,
  f: Fixture,
  title: string,
  index: number,
  quizzes: number,
): Promise<LiveSession> {
  const pupils = Array.from(
    { length: LIVE_PUPILS },
    (_, i) => (index * LIVE_PUPILS + i) % f.pupils.length,
  );
  const played = Array.from(
    { length: quizzes },
    (_, i) => f.quizzes[(index + i) % f.quizzes.length] as Fixture['quizzes'][number],
  );
  const id = await makeSession(url, f, title, {
    quizIds: played.map((quiz) => quiz.id),
    attendeeIds: pupils.map((pupil) => f.pupils[pupil] as number),
  });
  const questions = played.flatMap((quiz) =>
    quiz.questions.map((question) => ({ quizId: quiz.id, question })),
  );
  return { id, pupils, questions };
}

/** What the classroom app of a session reports. */
export interface ClassEvents {
  /** A batch was acknowledged at `at` (performance.now()). */
  acked(sent: Sent, at: number): void;
  /** A batch was refused or failed. */
  failed(error: unknown): void;
}

/**
 * Plays the class from `start` until `deadline` (performance.now() times): each pupil's first
 * answer within one think time of the start, then one answer per think time. The app's first
 * batch leaves within a second of the start (sessions de-phased), then one about every second
 * (jittered by ±LIVE_JITTER_MS), the next one at once when an acknowledgement took longer. The
 * app sends one batch at a time, so its session's answer count after a batch is the sum of the
 * acknowledgements' `inserted` so far.
 */
export async function playClass(
  f: Fixture,
  session: LiveSession,
  sink: Sink,
  options: { start: number; deadline: number; seed: number },
  events: ClassEvents,
): Promise<void> {
  const random = seededRandom(options.seed);
  const think = () => LIVE_THINK_MS.min + random() * (LIVE_THINK_MS.max - LIVE_THINK_MS.min);
  const pupils = session.pupils.map((pupil) => ({
    pupil,
    userId: f.pupils[pupil] as number,
    answered: 0,
    nextAt: options.start + random() * think(),
  }));
  let tick = options.start + random() * 1000;
  for (;;) {
    const wait = tick - performance.now();
    if (wait > 0) await sleep(wait);
    const now = performance.now();
    if (now >= options.deadline) return;
    tick += 1000 + (2 * random() - 1) * LIVE_JITTER_MS;
    const keys: AnswerKey[] = [];
    for (const pupil of pupils) {
      while (pupil.nextAt <= now && pupil.answered < session.questions.length) {
        const { quizId, question } = session.questions[
          pupil.answered
        ] as LiveSession['questions'][number];
        keys.push({ pupil: pupil.pupil, userId: pupil.userId, quizId, question });
        pupil.answered += 1;
        pupil.nextAt += think();
      }
    }
    if (keys.length === 0) continue;
    try {
      const sent = await sink.send(session.id, keys);
      events.acked(sent, performance.now());
    } catch (error) {
      events.failed(error);
    }
  }
}

import { setTimeout as sleep } from 'node:timers/promises';
import {
  BadParameterException,
  QuizApiClient,
  type FetchFunction,
  type Id,
  type Session,
} from '@quiz-results/client';
import {
  AnswerBatchSender,
  latencySummary,
  MAX_BATCH,
  type LatencySummary,
  type SenderTotals,
} from './answer-batch.sender';
import { planClass, type PlannedAnswer } from './class-play.planner';

/**
 * A class played against a running service through its public API only (the JavaScript client):
 * a session for a quiz and its pupils (addSession with a clientRef, naming the pupils the teacher
 * knows, or the pupils joining with the session's join code), then every pupil answering
 * the questions over the class's duration, some wrongly, a few correcting an answer, sent with
 * addAnswers the way a classroom app sends them. The plan is deterministic (class-play.planner),
 * and answer times are given from the session's start: a class played again with the same
 * clientRef resumes its session, sends at once what is overdue (what was stored already counts
 * as unchanged) and the rest on time.
 */

/**
 * `tick`: the teacher's app sends what every pupil answered during each tick, in one batch.
 * `pupil`: each pupil's device sends each answer when it is given (what it holds back, once
 * it is late).
 */
export type Batching = 'tick' | 'pupil';

export interface ClassSimulationOptions {
  baseUrl: string;
  apiKey: string;
  /** A teacher's token: the session's owner, who writes every pupil's answers. */
  accessToken: string;
  quizId: Id;
  /** Class size: the pupils are found through the API unless pupilIds names them. */
  pupils: number;
  pupilIds?: readonly Id[];
  /**
   * Each pupil's own access token, when the pupils join the session with its join code
   * (contract.md §9) instead of being named by the teacher, who may name only pupils it knows
   * (its groups' members, its sessions' attendees). Each pupil joins, then, with `pupil`
   * batching, their device sends their own answers; with `tick` batching the teacher's app
   * sends them, the pupils being attendees.
   */
  pupilToken?: (pupilId: string) => Promise<string>;
  /** Duration of the class: every pupil has answered every question by then. */
  seconds: number;
  seed: number;
  batching?: Batching;
  /** Tick of the `tick` batching (default 1000 ms). */
  tickMs?: number;
  /** Names the session for addSession; by default one derived from the quiz, class and seed. */
  clientRef?: string;
  title?: string;
  /** Called once the session is open, before the first answer is sent. */
  onStart?: (start: SimulationStart) => void;
  onProgress?: (progress: SimulationProgress) => void;
  fetch?: FetchFunction;
}

export interface SimulationStart {
  sessionId: string;
  clientRef: string;
  resumed: boolean;
  questions: number;
  /** Answers planned, corrections included. */
  planned: number;
  /** Pupils who joined with the session's join code (none when the teacher named them). */
  joined: number;
}

export interface SimulationProgress {
  /** Answers acknowledged so far, out of `total` planned. */
  sent: number;
  total: number;
  batches: number;
}

export interface ClassSimulationReport extends SenderTotals {
  sessionId: string;
  clientRef: string;
  /** The session existed already (same owner and clientRef): the class was resumed. */
  resumed: boolean;
  pupilIds: string[];
  /** Pupils who joined with the session's join code (none when the teacher named them). */
  joined: number;
  questions: number;
  /** Answers planned, corrections included. */
  planned: number;
  corrections: number;
  /** Answers known to be wrong (quizzes whose good answers the requester sees). */
  wrong: number;
  /** Acknowledgement time of the batches, in milliseconds. */
  latencyMs: LatencySummary;
  elapsedMs: number;
}

/** A class that cannot be played as asked (not a failure of the service). */
export class SimulationError extends Error {}

const DEFAULT_TICK_MS = 1000;
/** Pupils joining at once: a class arriving, not a flood. */
const JOIN_CONCURRENCY = 8;

export function defaultClientRef(options: ClassSimulationOptions): string {
  return `simulate:quiz-${options.quizId}:${options.pupils}x${options.seconds}s:seed-${options.seed}`;
}

/** The first `count` users of the requester's groups, then of the quiz's past players. */
async function findPupils(api: QuizApiClient, quizId: Id, count: number): Promise<string[]> {
  const found = new Set<string>();
  const collect = async (users: AsyncIterable<{ id: string }>) => {
    for await (const user of users) {
      if (found.size >= count) return;
      found.add(user.id);
    }
  };
  const groups = await api.getUserGroupSet({ numberOfItemsPerPage: 1000 });
  if (groups.totalNumberOfItems > 0) {
    await collect(await api.getUserSet({ userGroupSetId: groups, numberOfItemsPerPage: 1000 }));
  }
  if (found.size < count) {
    await collect(await api.getUserSet({ quizId, numberOfItemsPerPage: 1000 }));
  }
  if (found.size < count) {
    throw new SimulationError(
      `found ${found.size} pupils in the teacher's groups and among the players of quiz ${quizId}, ` +
        `${count} asked: give the pupils' ids`,
    );
  }
  return [...found];
}

async function openSession(
  api: QuizApiClient,
  options: ClassSimulationOptions,
  pupilIds: string[],
  clientRef: string,
): Promise<{ session: Session; resumed: boolean }> {
  // Whole seconds, as the wire carries them: the times of the answers are counted from it.
  const startDate = new Date(Math.floor(Date.now() / 1000) * 1000);
  let session: Session;
  try {
    session = await api.addSession({
      session: {
        title: options.title ?? `Simulated class: quiz ${options.quizId}, seed ${options.seed}`,
        quizIds: [options.quizId],
        startDate,
        // Pupils who join are not named: the teacher may name only pupils it knows.
        attendeeIds: options.pupilToken ? [] : pupilIds,
        clientRef,
      },
    });
  } catch (error) {
    const named = /^session\.attendeeIds\[(\d+)\]$/.exec(
      error instanceof BadParameterException ? (error.parameterName ?? '') : '',
    );
    if (!named) throw error;
    throw new SimulationError(
      `pupil ${pupilIds[Number(named[1])]} is not known to the teacher (in none of their groups or sessions): ` +
        "such pupils join with the session's join code (simulate --join)",
    );
  }
  if (!session.quizIds.includes(String(options.quizId))) {
    throw new SimulationError(
      `clientRef ${clientRef} names session ${session.id}, which does not play quiz ${options.quizId}`,
    );
  }
  return { session, resumed: session.startDate.getTime() !== startDate.getTime() };
}

/**
 * Every pupil joins the session with its join code, with their own token (a few at a time), and
 * keeps their client: their device's.
 */
async function joinPupils(
  options: ClassSimulationOptions & { pupilToken: (pupilId: string) => Promise<string> },
  session: Session,
  pupilIds: readonly string[],
): Promise<Map<string, QuizApiClient>> {
  const { joinCode } = session;
  if (joinCode === undefined) {
    throw new SimulationError(`session ${session.id} shows its owner no join code`);
  }
  const devices = new Map<string, QuizApiClient>();
  for (let start = 0; start < pupilIds.length; start += JOIN_CONCURRENCY) {
    await Promise.all(
      pupilIds.slice(start, start + JOIN_CONCURRENCY).map(async (pupilId) => {
        const device = new QuizApiClient({
          baseUrl: options.baseUrl,
          apiKey: options.apiKey,
          accessToken: await options.pupilToken(pupilId),
          fetch: options.fetch,
        });
        await device.joinSession({ joinCode });
        devices.set(pupilId, device);
      }),
    );
  }
  return devices;
}

/**
 * The answers due at `nowMs` (after the class start) from `queue`, in order, without two answers
 * of one pupil to one question (a correction waits for the next batch), at most MAX_BATCH.
 */
function takeDue(queue: PlannedAnswer[], nowMs: number): PlannedAnswer[] {
  const batch: PlannedAnswer[] = [];
  const held: PlannedAnswer[] = [];
  const keys = new Set<string>();
  let index = 0;
  for (; index < queue.length && batch.length < MAX_BATCH; index += 1) {
    const answer = queue[index] as PlannedAnswer;
    if (answer.atMs > nowMs) break;
    const key = `${answer.pupil}:${answer.questionIndex}`;
    if (keys.has(key)) held.push(answer);
    else {
      keys.add(key);
      batch.push(answer);
    }
  }
  queue.splice(0, index, ...held);
  return batch;
}

interface Play {
  plan: PlannedAnswer[];
  sender: AnswerBatchSender;
  startMs: number;
  report: () => void;
  /** The pupils' own clients, by user id, when they joined: each device sends with its own. */
  devices: ReadonlyMap<string, QuizApiClient>;
}

/** Sleeps until `atMs` after the class start (at once when it is past). */
async function until(play: Play, atMs: number): Promise<void> {
  const wait = play.startMs + atMs - Date.now();
  if (wait > 0) await sleep(wait);
}

/** The teacher's app: each tick, one batch of everything answered since the last one. */
async function playByTick(play: Play, tickMs: number): Promise<void> {
  const queue = [...play.plan];
  while (queue.length > 0) {
    const nowMs = Date.now() - play.startMs;
    const batch = takeDue(queue, nowMs);
    if (batch.length > 0) {
      await play.sender.send(batch);
      play.report();
      continue;
    }
    // Next tick boundary at or after the next answer.
    const next = Math.max(nowMs + 1, (queue[0] as PlannedAnswer).atMs);
    await until(play, Math.ceil(next / tickMs) * tickMs);
  }
}

/** Each pupil's device: their answers sent one call each, as they come. */
async function playByPupil(play: Play, pupils: number): Promise<void> {
  const queues = Array.from({ length: pupils }, () => [] as PlannedAnswer[]);
  for (const answer of play.plan) queues[answer.pupil]?.push(answer);
  let failed = false;
  const device = async (queue: PlannedAnswer[]) => {
    while (queue.length > 0 && !failed) {
      await until(play, (queue[0] as PlannedAnswer).atMs);
      const batch = takeDue(queue, Date.now() - play.startMs);
      if (batch.length === 0) continue;
      await play.sender.send(batch, play.devices.get((batch[0] as PlannedAnswer).userId));
      play.report();
    }
  };
  await Promise.all(
    queues.map((queue) =>
      device(queue).catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    ),
  );
}

/** Plays one class; resolves with what was sent and how fast the service acknowledged it. */
export async function simulateClass(
  options: ClassSimulationOptions,
): Promise<ClassSimulationReport> {
  if (!(Number.isInteger(options.pupils) && options.pupils >= 1)) {
    throw new SimulationError('pupils must be a whole number of at least 1');
  }
  if (!(options.seconds >= 0)) throw new SimulationError('seconds must not be negative');
  const began = performance.now();
  const api = new QuizApiClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    accessToken: options.accessToken,
    fetch: options.fetch,
  });
  const quiz = await api.getQuiz({ quizId: options.quizId });
  if (quiz.questions.length === 0) {
    throw new SimulationError(`quiz ${options.quizId} has no questions`);
  }
  const pupilIds = options.pupilIds
    ? options.pupilIds.map(String)
    : await findPupils(api, options.quizId, options.pupils);
  const clientRef = options.clientRef ?? defaultClientRef(options);
  const { session, resumed } = await openSession(api, options, pupilIds, clientRef);
  const { pupilToken } = options;
  const devices = pupilToken
    ? await joinPupils({ ...options, pupilToken }, session, pupilIds)
    : new Map<string, QuizApiClient>();
  const plan = planClass({
    questions: quiz.questions,
    pupilIds,
    seconds: options.seconds,
    seed: options.seed,
  });
  const startMs = session.startDate.getTime();
  const sender = new AnswerBatchSender(api, session.id, options.quizId, startMs);
  const report = () => {
    const { sent, batches } = sender.totals;
    options.onProgress?.({ sent, total: plan.length, batches });
  };
  const play: Play = { plan, sender, startMs, report, devices };
  options.onStart?.({
    sessionId: session.id,
    clientRef,
    resumed,
    questions: quiz.questions.length,
    planned: plan.length,
    joined: devices.size,
  });
  report();
  if (options.batching === 'pupil') await playByPupil(play, pupilIds.length);
  else await playByTick(play, options.tickMs ?? DEFAULT_TICK_MS);
  return {
    ...sender.totals,
    sessionId: session.id,
    clientRef,
    resumed,
    pupilIds,
    joined: devices.size,
    questions: quiz.questions.length,
    planned: plan.length,
    corrections: plan.filter((answer) => answer.correction).length,
    wrong: plan.filter((answer) => answer.wrong).length,
    latencyMs: latencySummary(sender.latenciesMs),
    elapsedMs: performance.now() - began,
  };
}

import { setTimeout as sleep } from 'node:timers/promises';
import {
  formatWireDate,
  TooManyRequestsException,
  TransportException,
  UnexpectedServerResponseException,
  type Id,
  type NewAnswer,
  type QuizApiClient,
} from '@quiz-results/client';
import type { PlannedAnswer } from './class-play.planner';

/** The most answers one addAnswers call takes (contract.md §9). */
export const MAX_BATCH = 5000;

/** How often a batch is sent again after a 503 or a lost connection, before giving up. */
const UNAVAILABLE_ATTEMPTS = 5;
/** How often after a 429 (each waits the Retry-After the service gave). */
const RATE_LIMITED_ATTEMPTS = 20;

export interface SenderTotals {
  /** Answers acknowledged (a batch sent again counts once). */
  sent: number;
  batches: number;
  /** Batches sent again after a 429, a 503 or a lost connection. */
  retries: number;
  inserted: number;
  updated: number;
  unchanged: number;
}

/** A latency distribution in milliseconds (nearest rank). */
export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function latencySummary(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) =>
    sorted.length === 0 ? NaN : (sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] as number);
  return { p50: rank(0.5), p95: rank(0.95), p99: rank(0.99), max: rank(1) };
}

/**
 * Sends batches of planned answers to one session through addAnswers, as a classroom app does:
 * a batch refused for load (429, 503) or lost on the way is sent again, since addAnswers is
 * idempotent; anything else stops the class. Keeps the totals and the acknowledgement time of
 * every batch (the attempt that was answered, from sending to the parsed answer).
 */
export class AnswerBatchSender {
  readonly totals: SenderTotals = {
    sent: 0,
    batches: 0,
    retries: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
  };
  readonly latenciesMs: number[] = [];

  constructor(
    private readonly api: QuizApiClient,
    private readonly sessionId: Id,
    private readonly quizId: Id,
    private readonly startMs: number,
  ) {}

  private wire(answer: PlannedAnswer): NewAnswer {
    return {
      userId: answer.userId,
      quizId: this.quizId,
      questionIndex: answer.questionIndex,
      answer: answer.answer,
      answeredAt: formatWireDate(new Date(this.startMs + answer.atMs)),
    };
  }

  /**
   * Sends 1 to MAX_BATCH answers as one call (by `api`, a pupil's own client, or the teacher's);
   * resolves once the service acknowledged them.
   */
  async send(batch: readonly PlannedAnswer[], api: QuizApiClient = this.api): Promise<void> {
    const answers = batch.map((answer) => this.wire(answer));
    for (let attempt = 1; ; attempt += 1) {
      const started = performance.now();
      try {
        const result = await api.addAnswers({ sessionId: this.sessionId, answers });
        this.latenciesMs.push(performance.now() - started);
        const { totals } = this;
        totals.sent += batch.length;
        totals.batches += 1;
        totals.inserted += result.inserted;
        totals.updated += result.updated;
        totals.unchanged += result.unchanged;
        return;
      } catch (error) {
        const wait = retryDelayMs(error, attempt);
        if (wait === null) throw error;
        this.totals.retries += 1;
        await sleep(wait);
      }
    }
  }
}

/** How long to wait before sending a refused batch again; null when it must not be sent again. */
function retryDelayMs(error: unknown, attempt: number): number | null {
  if (error instanceof TooManyRequestsException) {
    return attempt < RATE_LIMITED_ATTEMPTS ? 1000 * (error.retryAfterSeconds ?? 1) : null;
  }
  const unavailable =
    error instanceof UnexpectedServerResponseException || error instanceof TransportException;
  return unavailable && attempt < UNAVAILABLE_ATTEMPTS ? 250 * 2 ** attempt : null;
}

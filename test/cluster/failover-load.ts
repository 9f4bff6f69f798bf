/**
 * The steady load of the failover test: workers per service instance send a mix of reads,
 * set-making requests and writes until stopped, each request with a client timeout, and record
 * every outcome with its times; writes that were acknowledged are kept for the exactly-once check.
 */

export const REQUEST_TIMEOUT_MS = 10_000;

type Json = Record<string, unknown>;

export interface Outcome {
  instance: string;
  operation: string;
  started: number;
  ended: number;
  /** HTTP status, or 0 when the client gave up (a hang). */
  status: number;
  type?: string;
  message?: string;
}

export interface Acknowledged {
  quizzes: { id: string; title: string }[];
  sessions: { id: string; clientRef: string; answers: number }[];
}

export interface LoadTarget {
  name: string;
  url: string;
  credentials: string;
  ids: { quiz: string; session: string; pupils: string[]; dataSetId: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Load {
  readonly outcomes: Outcome[] = [];
  readonly acknowledged: Acknowledged = { quizzes: [], sessions: [] };
  private running = true;
  private readonly workers: Promise<void>[] = [];
  private serial = 0;

  constructor(
    private readonly targets: LoadTarget[],
    private readonly workersPerTarget = 3,
  ) {}

  start(): void {
    for (const target of this.targets) {
      for (let worker = 0; worker < this.workersPerTarget; worker += 1) {
        this.workers.push(this.work(target, worker));
      }
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  private async request(
    target: LoadTarget,
    operation: string,
    query: string,
    body?: Json,
  ): Promise<{ status: number; body: Json }> {
    const started = Date.now();
    const outcome: Outcome = { instance: target.name, operation, started, ended: 0, status: 0 };
    let answer: { status: number; body: Json } = { status: 0, body: {} };
    try {
      const res = await fetch(`${target.url}/${operation}?${query}&${target.credentials}`, {
        method: body ? 'POST' : 'GET',
        headers: body ? { 'content-type': 'application/json' } : undefined,
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      answer = { status: res.status, body: (await res.json()) as Json };
      outcome.status = res.status;
      if (typeof answer.body.type === 'string') outcome.type = answer.body.type;
      if (res.status !== 200) outcome.message = String(answer.body.message);
    } catch {
      // Timed out (a hang) or the connection failed: status 0.
    }
    outcome.ended = Date.now();
    this.outcomes.push(outcome);
    return answer;
  }

  /** Sends an idempotent write until it is acknowledged, as a client that retries a 503 does. */
  private async untilAcknowledged(
    target: LoadTarget,
    operation: string,
    body: Json,
  ): Promise<Json | undefined> {
    for (let attempt = 0; attempt < 60; attempt += 1) {
      const answer = await this.request(target, operation, 'x=1', body);
      if (answer.status === 200) return answer.body;
      if (answer.status !== 503) return undefined;
      await sleep(250);
    }
    return undefined;
  }

  private async work(target: LoadTarget, worker: number): Promise<void> {
    const { ids } = target;
    for (let turn = worker; this.running; turn += 1) {
      const n = (this.serial += 1);
      switch (turn % 6) {
        case 0:
          await this.request(target, 'getQuiz', `quizId=${ids.quiz}`);
          break;
        case 1:
          await this.request(target, 'getDataSetPage', `dataSetId=${ids.dataSetId}&pageIndex=1`);
          break;
        case 2:
          await this.request(target, 'getUserSet', `sessionId=${ids.session}`);
          break;
        case 3: {
          const users = await this.request(target, 'getUserSet', `sessionId=${ids.session}`);
          const quizzes = await this.request(target, 'getQuizSet', `sessionId=${ids.session}`);
          if (users.status === 200 && quizzes.status === 200) {
            await this.request(
              target,
              'getResults',
              `userSetId=${String(users.body.dataSetId)}&quizSetId=${String(quizzes.body.dataSetId)}&sessionId=${ids.session}&resultTypes=nbGoodAnswers,nbAnswers`,
            );
          }
          break;
        }
        case 4: {
          // addQuiz is not idempotent: a 503 is not sent again, and only acknowledged quizzes count.
          const title = `failover ${target.name} ${n}`;
          const quiz = {
            title,
            visibility: 'public',
            survey: false,
            tags: ['failover', 'load'],
            questions: [{ title: 'True?', type: 'TrueFalse', goodAnswer: true }],
          };
          const answer = await this.request(target, 'addQuiz', 'x=1', { quiz });
          if (answer.status === 200) {
            this.acknowledged.quizzes.push({ id: String(answer.body.id), title });
          }
          break;
        }
        default: {
          const clientRef = `failover-${target.name}-${n}`;
          const session = await this.untilAcknowledged(target, 'addSession', {
            session: { title: clientRef, quizIds: [ids.quiz], clientRef },
          });
          if (!session) break;
          const answers = ids.pupils.map((userId, index) => ({
            userId,
            quizId: ids.quiz,
            questionIndex: index % 5,
            answer: index % 2 === 0,
          }));
          const written = await this.untilAcknowledged(target, 'addAnswers', {
            sessionId: session.id,
            answers,
          });
          if (written) {
            this.acknowledged.sessions.push({
              id: String(session.id),
              clientRef,
              answers: answers.length,
            });
          }
        }
      }
    }
  }
}

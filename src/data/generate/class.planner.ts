import { DAY, type World } from './generation-world';
import { IntList, Random, Stream } from './random-streams';

/** Who plays what and when: the sessions of the quizzes, the attempts of the pupils. */

/** Days from the start of the history to the first session, and the span of sessions. */
const SESSIONS_FROM_DAY = 90;
const SESSIONS_SPAN_DAYS = 170;

export interface SessionPlan {
  /** Quizzes each session plays. */
  quizzes: number[][];
  /** Sessions each quiz is played in. */
  sessionsOf: number[][];
  startMs: Float64Array;
}

/** Every quiz is played in some session and every session plays some quiz. */
export function planSessions(world: World): SessionPlan {
  const { quizCount, sessionCount } = world;
  const quizzes: number[][] = Array.from({ length: sessionCount }, () => []);
  const startMs = new Float64Array(sessionCount);
  for (let s = 0; s < sessionCount; s += 1) {
    const random = new Random(world.seed, Stream.Sessions, s);
    const played = quizzes[s] as number[];
    if (sessionCount >= quizCount) {
      played.push(s % quizCount);
      if (quizCount > 1 && random.chance(0.3))
        played.push((s + random.int(1, quizCount - 1)) % quizCount);
    } else {
      for (let q = s; q < quizCount; q += sessionCount) played.push(q);
    }
    let day = world.start + (SESSIONS_FROM_DAY + random.int(0, SESSIONS_SPAN_DAYS - 1)) * DAY;
    // Classes meet on weekdays: Saturday and Sunday sessions move to the next Monday.
    const weekday = new Date(day).getUTCDay();
    if (weekday === 6 || weekday === 0) day += (weekday === 6 ? 2 : 1) * DAY;
    startMs[s] = day + random.int(8, 15) * 3_600_000 + random.pick([0, 15, 30, 45]) * 60_000;
  }
  const sessionsOf: number[][] = Array.from({ length: quizCount }, () => []);
  quizzes.forEach((played, s) => played.forEach((q) => sessionsOf[q]?.push(s)));
  return { quizzes, sessionsOf, startMs };
}

/** Attempts in (pupil, quiz) order, in typed arrays: a million of them cost 12 MB, not a million objects. */
export interface Attempts {
  count: number;
  pupil: IntList;
  quiz: IntList;
  session: IntList;
}

/** Each (pupil, quiz) pair attempts with probability p: pairs are visited by geometric skips. */
export function planAttempts(world: World, sessions: SessionPlan, participation: number): Attempts {
  const attempts: Attempts = {
    count: 0,
    pupil: new IntList(),
    quiz: new IntList(),
    session: new IntList(),
  };
  const pairs = world.pupilCount * world.quizCount;
  if (world.sessionCount === 0 || pairs === 0 || participation <= 0) return attempts;
  const random = new Random(world.seed, Stream.Attempts);
  const logMiss = Math.log1p(-participation);
  for (let pair = -1; ;) {
    // Pairs skipped before the next attempt: Geometric(p), none at all when p is 1.
    pair += 1 + (participation >= 1 ? 0 : Math.floor(Math.log(1 - random.next()) / logMiss));
    if (pair >= pairs) break;
    const quiz = pair % world.quizCount;
    attempts.pupil.push(Math.floor(pair / world.quizCount));
    attempts.quiz.push(quiz);
    attempts.session.push(random.pick(sessions.sessionsOf[quiz] as number[]));
  }
  attempts.count = attempts.pupil.length;
  return attempts;
}

/** The distinct pupils with an attempt in each session, sorted: session s owns [start[s], start[s+1]). */
export function attendeesBySession(
  world: World,
  attempts: Attempts,
): { start: Int32Array; pupils: IntList } {
  const { pupilCount, sessionCount } = world;
  const keys = new Float64Array(attempts.count);
  for (let a = 0; a < attempts.count; a += 1)
    keys[a] = attempts.session.get(a) * pupilCount + attempts.pupil.get(a);
  keys.sort();
  const start = new Int32Array(sessionCount + 1);
  const pupils = new IntList();
  for (let a = 0; a < keys.length; a += 1) {
    const key = keys[a] as number;
    if (a > 0 && key === keys[a - 1]) continue;
    const session = Math.floor(key / pupilCount);
    pupils.push(key - session * pupilCount);
    start[session + 1] = pupils.length;
  }
  // Sessions without attendees start where the previous one ends.
  for (let s = 1; s <= sessionCount; s += 1)
    start[s] = Math.max(start[s] as number, start[s - 1] as number);
  return { start, pupils };
}

export function normals(seed: number, stream: Stream, count: number): Float64Array {
  const random = new Random(seed, stream);
  const values = new Float64Array(count);
  for (let i = 0; i < count; i += 1) values[i] = random.normal();
  return values;
}

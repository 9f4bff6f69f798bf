/** What every part of one generation shares: its sizes, the refs of its records, its dates. */

/** Milliseconds in a day. */
export const DAY = 86_400_000;

/** Sizes and refs shared by every step of one generation. */
export interface World {
  seed: number;
  /** Midnight UTC of the first day of the history. */
  start: number;
  perQuiz: number;
  teacherCount: number;
  pupilCount: number;
  quizCount: number;
  sessionCount: number;
}

export const userRef = (index: number): string => `u${index + 1}`;
export const quizRef = (index: number): string => `q${index + 1}`;
export const sessionRef = (index: number): string => `S${index + 1}`;
/** Pupils come after the teachers among the users. */
export const pupilRef = (world: World, pupil: number): string =>
  userRef(world.teacherCount + pupil);

export function dateText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/*
 * How much the fuzz suite runs, and with which seed: the same for every property of a run, and
 * said in the run's output so that any run can be replayed.
 *
 * - FUZZ_RUNS: generated requests per operation and transport. Default 100, what `npm test`
 *   affords; `npm run test:slow` runs 1000.
 * - FUZZ_SEED: the seed of every property; default a new random one per run.
 * - FUZZ_PATH: with FUZZ_SEED, replays the counterexample fast-check reported.
 */

export const DEFAULT_FUZZ_RUNS = 100;

export interface FuzzSettings {
  runs: number;
  seed: number;
  path: string | undefined;
}

function integer(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new Error(`${name} must be an integer, not "${value}"`);
  return number;
}

export function fuzzSettings(env: NodeJS.ProcessEnv = process.env): FuzzSettings {
  const runs =
    env.FUZZ_RUNS === undefined ? DEFAULT_FUZZ_RUNS : integer('FUZZ_RUNS', env.FUZZ_RUNS);
  if (runs < 1) throw new Error(`FUZZ_RUNS must be at least 1, not ${runs}`);
  const seed =
    env.FUZZ_SEED === undefined
      ? Math.floor(Math.random() * 0x80000000)
      : integer('FUZZ_SEED', env.FUZZ_SEED);
  return { runs, seed, path: env.FUZZ_PATH };
}

/** The line the suite prints first. */
export function describeFuzzSettings({ runs, seed, path }: FuzzSettings): string {
  const replay = `FUZZ_SEED=${seed} FUZZ_RUNS=${runs}${path === undefined ? '' : ` FUZZ_PATH=${path}`}`;
  return `fuzz: ${runs} generated requests per operation and transport, seed ${seed} (replay: ${replay})`;
}

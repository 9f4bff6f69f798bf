import type { AppDeps } from '../context/request-context';

export interface Job {
  name: string;
  everySeconds: number;
  run: (deps: AppDeps) => Promise<number | void>;
}

export interface RunningJobs {
  /** Stops the timers, then runs each job's final pass (pending key usage is written). */
  stop: () => Promise<void>;
}

/** Periodic maintenance in the service process; a failing run is logged and retried next time. */
export function startJobs(
  deps: AppDeps,
  jobs: readonly Job[],
  finalRuns: readonly Job[] = [],
): RunningJobs {
  const running = new Set<Promise<unknown>>();
  const timers = jobs.map((job) => {
    const timer = setInterval(() => {
      const run = job
        .run(deps)
        .then((count) => {
          if (count) deps.logger.debug({ job: job.name, count }, 'job done');
        })
        .catch((error: unknown) => deps.logger.warn({ job: job.name, err: error }, 'job failed'))
        .finally(() => running.delete(run));
      running.add(run);
    }, job.everySeconds * 1000);
    timer.unref();
    return timer;
  });
  return {
    stop: async () => {
      timers.forEach(clearInterval);
      await Promise.allSettled(running);
      for (const job of finalRuns) {
        await job
          .run(deps)
          .catch((error: unknown) => deps.logger.warn({ job: job.name, err: error }, 'job failed'));
      }
    },
  };
}

import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * prom-client's default metrics (CPU, memory, event loop lag, GC, handles) describe the process,
 * not an app: one registry for the whole process, started by the first app that serves metrics.
 * Each collectDefaultMetrics call starts an event-loop monitor and a GC observer that cannot be
 * stopped, so a process running several apps (the tests) must not start one per app.
 */
let processRegistry: Registry | undefined;

export function startProcessMetrics(): void {
  if (processRegistry) return;
  processRegistry = new Registry();
  collectDefaultMetrics({ register: processRegistry });
}

/** The process's metrics as exposition text ('' before they are started). */
export function processMetricsText(): Promise<string> {
  return processRegistry ? processRegistry.metrics() : Promise.resolve('');
}

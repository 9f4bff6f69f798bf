import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config/config';
import { redactText, redactValue } from './redact';

export type { Logger };

/**
 * The service's logger. Every record goes through redaction: secrets travel in query strings,
 * so a URL, an error message or a field named like a secret never reaches the output in clear.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => redactValue(object) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          const redacted = args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg));
          return method.apply(this, redacted as Parameters<typeof method>);
        },
      },
    },
    redactingStream(destination ?? pino.destination(1)),
  );
}

/** The last net: every serialised line is redacted once more before it is written. */
function redactingStream(destination: DestinationStream): DestinationStream {
  return {
    write: (line: string) => destination.write(redactText(line)),
  };
}

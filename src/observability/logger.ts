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
      // formatters.log has made errors plain already (loggedError: type, code, message, stack);
      // pino's own err serializer would name their type `Object`.
      serializers: { err: (value: unknown) => value },
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
    redactingStream(destination ?? bufferedStdout()),
  );
}

/** Lines kept before a write: one system call for many lines instead of one per request. */
const BUFFER_BYTES = 4096;
/** A quiet service still shows its lines within this delay. */
const FLUSH_INTERVAL_MS = 250;

let stdout: DestinationStream | undefined;

/** One buffered standard output per process, whatever the number of loggers made. */
function bufferedStdout(): DestinationStream {
  stdout ??= openBufferedStdout();
  return stdout;
}

/**
 * Standard output, buffered: writing each request's line on its own cost a system call, about a
 * twentieth of a getQuiz request's CPU. Whatever is buffered is written before the process
 * ends, however it ends in Node (process.exit included).
 */
function openBufferedStdout(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES });
  setInterval(() => stream.flush(), FLUSH_INTERVAL_MS).unref();
  process.once('exit', () => {
    try {
      stream.flushSync();
    } catch {
      // Standard output already closed: nothing more can be written.
    }
  });
  return stream;
}

/** The last net: every serialised line is redacted once more before it is written. */
function redactingStream(destination: DestinationStream): DestinationStream {
  return {
    write: (line: string) => destination.write(redactText(line)),
  };
}

import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { Errors } from '../../errors';
import { errorBody, transportOperation, type WireOf } from './wire';

/** The path of a request line read from the bytes Node's parser refused, if it got that far. */
function pathOf(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return '/';
  const line = rawPacket.toString('latin1', 0, Math.min(rawPacket.length, 2048)).split('\r\n')[0];
  const target = line.split(' ')[1] ?? '/';
  return target.split('?')[0] || '/';
}

/**
 * Requests Node's HTTP parser refuses before Express sees them (a request head over the size
 * limit, bytes that are not HTTP) get the contract's answer on the wire of their path instead
 * of Node's empty one; the connection then closes.
 */
export function clientErrorHandler(headLimitBytes: number, wireOf: WireOf) {
  return (error: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Duplex): void => {
    // Only what the client sent wrongly is answered; a reset or timed-out connection just ends.
    if (!socket.writable || !error.code?.startsWith('HPE_')) {
      socket.destroy();
      return;
    }
    const path = pathOf(error.rawPacket);
    const wire = wireOf(path);
    const operation = transportOperation(path, wire);
    const refused =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? Errors.payloadTooLarge(operation, headLimitBytes, 'request head')
        : Errors.badParameter(operation, 'request', '', 'the request is not valid HTTP/1.1');
    const body = JSON.stringify(errorBody(refused, wire));
    socket.end(
      [
        `HTTP/1.1 ${refused.status} ${STATUS_CODES[refused.status] ?? ''}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${randomUUID()}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  };
}

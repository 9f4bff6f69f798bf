import { setImmediate } from 'node:timers/promises';
import type { Request, Response } from 'express';
import type { RequestContext } from '../../context/request-context';
import type { RestDownload } from '../operations/shapes/download';

/**
 * Writes a download (exportDataSet) as the 200 answer, as fast as the client reads it: the next
 * chunk is read only once the socket took the last one ('drain'), and no more once the client
 * has gone. Its first chunk is read before anything is sent, so a failure there is an ordinary
 * error answer; a failure after the first byte cuts the connection (the chunked answer then has
 * no end: a client cannot take a truncated file for a complete one) and is logged.
 */

/** Resolves when the socket wants more, or at once when the answer is over (client gone). */
function drained(res: Response): Promise<void> {
  if (res.destroyed || res.writableFinished) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** `attachment; filename="…"`: the names we make are plain ASCII (item type, id, extension). */
function attachment(fileName: string): string {
  return `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`;
}

export async function sendDownload(
  ctx: RequestContext,
  req: Request,
  res: Response,
  download: RestDownload,
): Promise<void> {
  const chunks = download.body[Symbol.asyncIterator]();
  // Throws before the first byte: the error middleware answers the contract's JSON error.
  let next = await chunks.next();
  res.status(200);
  res.setHeader('Content-Type', download.contentType);
  res.setHeader('Content-Disposition', attachment(download.fileName));
  // The file holds the requester's own data.
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (req.method === 'HEAD') {
    await chunks.return?.();
    res.end();
    return;
  }
  let left = false;
  res.once('close', () => {
    left = !res.writableFinished;
  });
  const gone = () => left || res.destroyed;
  // Settles once the last chunk reached the socket (or failed to): what was sent before a
  // failure still reaches the client before the connection is cut.
  let written: Promise<void> = Promise.resolve();
  const write = (text: string): boolean => {
    let settle = () => undefined as void;
    written = new Promise((resolve) => (settle = resolve));
    return res.write(text, () => settle());
  };
  try {
    for (;;) {
      // Checked before each write: the client may leave while a chunk is being read.
      if (gone()) {
        await chunks.return?.();
        ctx.logger.info({ operation: ctx.operation }, 'the client left during a download');
        return;
      }
      if (next.done) break;
      if (!write(next.value)) await drained(res);
      // Each chunk gives way to other work: SQLite's reads never leave the event loop themselves.
      await setImmediate();
      next = await chunks.next();
    }
    res.end();
  } catch (error) {
    ctx.logger.error(
      { err: error, operation: ctx.operation },
      'download failed after its first byte: the connection is cut',
    );
    if (!gone()) await Promise.race([written, drained(res)]);
    res.destroy();
  }
}

import http from 'node:http';
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Milliseconds from sending to the end of the answer. */
  ms: number;
}

/**
 * One request with exactly the given headers and body bytes (fetch sets some headers itself and
 * refuses others, such as a Content-Encoding that does not match the body).
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const body =
      options.body === undefined
        ? undefined
        : Buffer.isBuffer(options.body)
          ? options.body
          : Buffer.from(options.body);
    const req = http.request(
      url,
      {
        method: options.method ?? (body ? 'POST' : 'GET'),
        headers: {
          ...(body ? { 'content-length': String(body.length) } : {}),
          ...options.headers,
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends a request head (and optionally the first bytes of a body) over a plain socket and reads
 * whatever comes back until the server closes the connection; the rest of the body is never sent.
 */
export function headOnly(
  url: string,
  head: string,
  firstBytes = '',
): Promise<{ status: number; head: string; body: string; closed: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(head + firstBytes));
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(parse(false));
    }, 5000);
    const parse = (closed: boolean) => {
      const [rawHead = '', ...rest] = received.split('\r\n\r\n');
      return {
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(rawHead)?.[1] ?? 0),
        head: rawHead,
        body: rest.join('\r\n\r\n'),
        closed,
      };
    };
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parse(true));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while bytes are still in flight; what it answered still counts.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
  });
}

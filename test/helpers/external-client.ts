import { spawn } from 'node:child_process';

export interface ExternalRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sent this many milliseconds after the first request. */
  delayMs?: number;
}

export interface ExternalAnswer {
  status: number;
  text: string;
  /** Milliseconds from sending the request to the end of its answer, as the client saw them. */
  ms: number;
}

/** The client, run in its own process: the suite's process also runs the service. */
const CLIENT = `
const http = require('node:http');
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', async () => {
  const requests = JSON.parse(input);
  const answers = await Promise.all(requests.map((request) => new Promise((resolve, reject) => {
    setTimeout(() => {
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      const started = performance.now();
      const req = http.request(request.url, {
        method: request.method || 'GET',
        headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...request.headers },
        agent: false,
      }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, text, ms: performance.now() - started }));
      });
      req.on('error', reject);
      req.end(body);
    }, request.delayMs || 0);
  })));
  process.stdout.write(JSON.stringify(answers));
});
`;

/**
 * Sends requests at once from another process and reports how long each took to be answered, so
 * the timing is the service's, not shared with the suite's own event loop.
 */
export function requestFromAnotherProcess(requests: ExternalRequest[]): Promise<ExternalAnswer[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CLIENT], { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`the client process exited with ${code}`));
      else resolve(JSON.parse(output) as ExternalAnswer[]);
    });
    child.stdin.end(JSON.stringify(requests));
  });
}

import fs from 'node:fs';
import path from 'node:path';

/**
 * The folder holding the project's package.json, from src/… (ts-node, jest) or dist/src/…
 * alike; `start` itself when none is found (a build copied elsewhere).
 */
export function packageRoot(start: string = __dirname): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return start;
  }
}

/** The service's version, from its package.json ("unknown" when it cannot be read). */
export function serviceVersion(): string {
  try {
    const file = path.join(packageRoot(), 'package.json');
    const { version } = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

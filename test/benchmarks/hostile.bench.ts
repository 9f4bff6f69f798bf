import { loadData } from '../../src/data/import/bulk-loader';
import { startTestApp } from '../helpers/app';
import { createTestApiKey, createTestToken } from '../helpers/credentials';
import { openTestDatabase } from '../helpers/database';
import { requestFromAnotherProcess } from '../helpers/external-client';
import { TEACHER_AND_PUPIL } from '../helpers/fixtures';

/**
 * How long a hostile request takes to refuse, and how long /healthz waits meanwhile: a quiz of
 * 100,000 tags (refused on its count before any tag is looked at) and a JSON body nested 100,000
 * levels deep, each sent with a /healthz 2 ms later, by a client in its own process. Prints the
 * median and worst of ROUNDS rounds (HOSTILE_ROUNDS, default 15); the targets are 100 ms each.
 */

const ROUNDS = Number(process.env.HOSTILE_ROUNDS ?? 15);
const QUIZ = { title: 'Fractions', visibility: 'public', survey: false };

function summary(label: string, values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return `${label.padEnd(46)} median ${median.toFixed(1).padStart(6)} ms   worst ${sorted[sorted.length - 1].toFixed(1).padStart(6)} ms`;
}

async function main(): Promise<void> {
  const { dataSource, close } = await openTestDatabase('bench_hostile');
  const app = await startTestApp(dataSource, { LOG_LEVEL: 'warn' });
  try {
    const ids = await loadData(dataSource, TEACHER_AND_PUPIL);
    const key = await createTestApiKey(dataSource, 'localhost');
    const token = await createTestToken(dataSource, Number(ids.users.t), key.id);
    const url = `${app.url}/addQuiz?apiKey=${key.secret}&accessToken=${token}`;
    const bodies = {
      '100,000 tags': JSON.stringify({
        quiz: { ...QUIZ, tags: Array.from({ length: 100_000 }, (_tag, index) => `t${index}`) },
      }),
      'JSON nested 100,000 deep': `{"quiz": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    };
    const times = new Map<string, number[]>();
    const record = (label: string, ms: number) =>
      times.set(label, [...(times.get(label) ?? []), ms]);
    // Interleaved rounds: both kinds see the same moments of a shared machine.
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [label, body] of Object.entries(bodies)) {
        const [refused, healthz] = await requestFromAnotherProcess([
          { url, method: 'POST', headers: { 'content-type': 'application/json' }, body },
          { url: `${app.url}/healthz`, delayMs: 2 },
        ]);
        if (refused.status !== 400 || healthz.status !== 200) {
          throw new Error(`${label}: answered ${refused.status}, /healthz ${healthz.status}`);
        }
        record(`${label}: refused`, refused.ms);
        record(`${label}: /healthz meanwhile`, healthz.ms);
      }
    }
    console.log(`hostile requests, ${ROUNDS} interleaved rounds (targets: 100 ms)`);
    for (const [label, values] of times) console.log(summary(label, values));
  } finally {
    await app.close();
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

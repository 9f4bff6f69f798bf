// The order of the test files: the default (files that failed last time first, then the
// longest first by the last run's durations). It refuses a file that two tiers (jest projects in
// package.json) select, as it would run twice; and it notes for the global setup when a selected
// file needs the service built (it calls ensureBuilt() or startServiceProcess(),
// test/helpers/build.ts), so that the one build of the run starts before the first test does.
// Jest sorts before the global setup runs.
import fs from 'node:fs';
import process from 'node:process';
import DefaultSequencer from '@jest/test-sequencer';

export const BUILD_NEEDED_VARIABLE = 'QUIZ_TEST_BUILD_NEEDED';
const NEEDS_BUILD_MARKS = ['ensureBuilt(', 'startServiceProcess('];

export default class Sequencer extends DefaultSequencer {
  sort(tests) {
    const tiers = new Map();
    for (const test of tests) {
      const tier = test.context.config.displayName?.name ?? '(none)';
      if (tiers.has(test.path)) {
        throw new Error(`${test.path} is in two tiers: ${tiers.get(test.path)} and ${tier}`);
      }
      tiers.set(test.path, tier);
    }
    const sorted = super.sort(tests);
    const needsBuild = sorted.some((test) => {
      const source = fs.readFileSync(test.path, 'utf8');
      return NEEDS_BUILD_MARKS.some((mark) => source.includes(mark));
    });
    if (needsBuild) process.env[BUILD_NEEDED_VARIABLE] = '1';
    else delete process.env[BUILD_NEEDED_VARIABLE];
    return sorted;
  }
}

// The order of the test files: the default (files that failed last time first, then the
// longest first by the last run's durations). Before that it checks the tiers (the jest projects
// in package.json, chosen by folder and file suffix): every test file under test/ must be selected
// by exactly one tier, whichever tiers this run selects; a file in none would never run, a file
// in two would run twice, and either stops the run. It also notes for the global setup when a
// selected file needs the service built (it calls ensureBuilt() or startServiceProcess(),
// test/helpers/build.ts), so that the one build of the run starts before the first test does.
// Jest sorts before the global setup runs.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { SearchSource } from '@jest/core';
import DefaultSequencer from '@jest/test-sequencer';
import { defaults, readConfigs } from 'jest-config';
import { globsToMatcher } from 'jest-util';

export const BUILD_NEEDED_VARIABLE = 'QUIZ_TEST_BUILD_NEEDED';
const NEEDS_BUILD_MARKS = ['ensureBuilt(', 'startServiceProcess('];
// What jest would take for a test file without a testMatch: *.test.*, *.spec.*, __tests__/.
const looksLikeTest = globsToMatcher(defaults.testMatch);

export default class Sequencer extends DefaultSequencer {
  constructor(options) {
    super(options);
    this.rootDir = options.globalConfig.rootDir;
  }

  async sort(tests) {
    if (tests.length > 0) await this.checkTiers(tests[0].context.hasteFS.getAllFiles());
    const sorted = await super.sort(tests);
    const needsBuild = sorted.some((test) => {
      const source = fs.readFileSync(test.path, 'utf8');
      return NEEDS_BUILD_MARKS.some((mark) => source.includes(mark));
    });
    if (needsBuild) process.env[BUILD_NEEDED_VARIABLE] = '1';
    else delete process.env[BUILD_NEEDED_VARIABLE];
    return sorted;
  }

  // Every tier is read again from package.json (a run sees only the tiers it selects), and each
  // file is matched with jest's own rule (testMatch, testPathIgnorePatterns, roots).
  async checkTiers(files) {
    const { configs } = await readConfigs({ $0: 'jest', _: [] }, [this.rootDir]);
    const tiers = configs.map((config) => ({
      name: config.displayName?.name ?? '(none)',
      search: new SearchSource({ config }),
    }));
    const testDir = path.join(this.rootDir, 'test') + path.sep;
    const wrong = [];
    for (const file of files) {
      if (!file.startsWith(testDir) || !looksLikeTest(file)) continue;
      const names = tiers.filter((tier) => tier.search.isTestFilePath(file)).map((t) => t.name);
      const where = path.relative(this.rootDir, file);
      if (names.length === 0) wrong.push(`${where} is in no tier`);
      if (names.length > 1) wrong.push(`${where} is in two tiers: ${names.join(' and ')}`);
    }
    if (wrong.length > 0) {
      throw new Error(
        `${wrong.join('\n')}\nA file's tier comes from its folder or suffix: see "Tests" in README.md.`,
      );
    }
  }
}

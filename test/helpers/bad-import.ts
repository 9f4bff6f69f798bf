import { generateData, type GenerateOptions } from '../../src/data/generate/synthetic-data';
import type { ImportAnswer, ImportSource } from '../../src/data/import/import-document';

/**
 * A generated source whose LAST answer is made bad (an impossible date): the error is found
 * after every earlier answer was sent, so a load that refuses it shows nothing was kept.
 */
export function generatedWithBadLastAnswer(options: GenerateOptions): {
  source: ImportSource;
  lastIndex: number;
} {
  const { source, expected } = generateData(options);
  const answers = source.answers as Iterable<ImportAnswer>;
  const lastIndex = expected.answers - 1;
  return {
    lastIndex,
    source: {
      ...source,
      answers: {
        *[Symbol.iterator]() {
          let index = 0;
          for (const answer of answers) {
            yield index === lastIndex ? { ...answer, answeredAt: '2027-02-30 10:00:00' } : answer;
            index += 1;
          }
        },
      },
    },
  };
}

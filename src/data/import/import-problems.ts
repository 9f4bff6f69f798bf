import { InvalidInputError } from '../../domain/validation/checks';

/** Errors listed one by one in a refused file's report; beyond, only counted. */
export const MAX_REPORTED_ERRORS = 100;

/** A path of the file as a JSON path: `quizzes[3].title` is `$.quizzes[3].title`. */
export function jsonPath(path: string): string {
  return path.startsWith('$') ? path : `$.${path}`;
}

/**
 * A refused data file, with every error found in it (the first MAX_REPORTED_ERRORS, and how many
 * more). `path` and `reason` are the first error's, as for a file with one error.
 */
export class ImportErrors extends InvalidInputError {
  constructor(
    readonly errors: readonly InvalidInputError[],
    /** Errors found beyond those listed. */
    readonly more: number,
  ) {
    const first = errors[0] as InvalidInputError;
    super(first.path, first.reason);
    this.name = 'ImportErrors';
    const total = errors.length + more;
    this.message = [
      `${total} ${total === 1 ? 'error' : 'errors'} in the file, nothing was imported:`,
      ...errors.map((error) => `  ${jsonPath(error.path)}: ${error.reason}`),
      ...(more > 0 ? [`  and ${more} more`] : []),
    ].join('\n');
  }
}

/** The errors of one file, collected while every record is still checked. */
export class ImportProblems {
  private readonly listed: InvalidInputError[] = [];
  private more = 0;

  constructor(private readonly cap = MAX_REPORTED_ERRORS) {}

  get count(): number {
    return this.listed.length + this.more;
  }

  add(error: InvalidInputError): void {
    if (this.listed.length < this.cap) this.listed.push(error);
    else this.more += 1;
  }

  throwIfAny(): void {
    if (this.count > 0) throw new ImportErrors(this.listed, this.more);
  }
}

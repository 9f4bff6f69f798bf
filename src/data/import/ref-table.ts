import { describe, distinctList, fail, InvalidInputError } from '../../domain/validation/checks';
import type { ImportSection } from './import-document';

/**
 * A record refers to a record that was refused: that one's error is reported, and the records
 * that depend on it are skipped rather than reported again.
 */
export class RefusedRefError extends InvalidInputError {}

/**
 * The refs of one section of a data file: each names the 0-based index of its record, so later
 * records are resolved to indexes as they are read, and the loader maps indexes to ids.
 */
export class RefTable {
  private readonly indexes = new Map<string, number>();
  /** `user "s1"` by index, made once per record rather than once per answer that may need it. */
  private readonly names: string[] = [];
  private readonly refused = new Set<number>();

  constructor(
    private readonly section: ImportSection,
    /** How errors name a record of the section: `user`, `quiz`... */
    private readonly kind: string,
  ) {}

  /** Registers the ref of record `index`; refuses an empty or a duplicate one. */
  add(value: unknown, path: string, index: number): string {
    if (typeof value !== 'string' || value === '')
      fail(path, `expected a non-empty text, got ${describe(value)}`);
    const previous = this.indexes.get(value);
    if (previous !== undefined)
      fail(path, `duplicate ref "${value}" (also ${this.section}[${previous}])`);
    this.indexes.set(value, index);
    this.names[index] = `${this.kind} "${value}"`;
    return value;
  }

  /** Marks record `index` refused: refs to it throw RefusedRefError. */
  refuse(index: number): void {
    this.refused.add(index);
  }

  /** The index of the record a ref names. */
  resolve(value: unknown, path: string): number {
    if (typeof value !== 'string')
      fail(path, `expected a ${this.kind} ref, got ${describe(value)}`);
    const index = this.indexes.get(value);
    if (index === undefined) fail(path, `unknown ${this.kind} ref "${value}"`);
    if (this.refused.has(index))
      throw new RefusedRefError(path, `${this.kind} "${value}" was refused`);
    return index;
  }

  /** The indexes of an optional list of refs, none listed twice. */
  distinct(value: unknown, path: string): number[] {
    return distinctList(value, path, this.kind, (item, itemPath) => this.resolve(item, itemPath));
  }

  /** How an error names a record: `user "s1"`. */
  name(index: number): string {
    return this.names[index] as string;
  }
}

import type { ColumnEntry, PersonalCategory } from './personal-data.types';

/** The short forms the registry's entries are written with. */

export const none: ColumnEntry = { category: null };
export const person: ColumnEntry = { category: 'person' };
export const as = (category: PersonalCategory, note?: string): ColumnEntry =>
  note === undefined ? { category } : { category, note };
export const kept = (note: string): ColumnEntry => ({
  category: 'person',
  note,
  keepsTombstoneId: true,
});
export const plain = (note: string): ColumnEntry => ({ category: null, note });

export const WHILE_USED = 'as long as the database keeps it: no retention period applies';
export const NOT_PERSONAL = 'nothing: no personal data';

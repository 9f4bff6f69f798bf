/** `YYYY-MM-DD hh:mm:ss` in UTC, the legacy datetime format. */
export function legacyDate(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** Identifiers travel as strings. */
export function legacyId(id: number): string {
  return String(id);
}

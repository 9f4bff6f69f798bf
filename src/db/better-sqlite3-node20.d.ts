// The alias `better-sqlite3-node20` is better-sqlite3 12: the same API as the 13 typed by
// @types/better-sqlite3.
declare module 'better-sqlite3-node20' {
  import Database from 'better-sqlite3';
  export = Database;
}

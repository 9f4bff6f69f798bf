import Database from 'better-sqlite3';
import Node20Database from 'better-sqlite3-node20';

/**
 * The better-sqlite3 module for the running Node (both load their native code on first open).
 * better-sqlite3 13 is built on Node-API 10 (Node 22.14 and later) and does not load on
 * Node 20; better-sqlite3 12 aborts the process on Node 24 when a statement is garbage-collected
 * (Node 24's `node::ObjectWrap`, which 12 extends, removes an environment cleanup hook from
 * wherever the collector runs, and stops the process when no environment is current there).
 * Node 20 keeps 12 under the `better-sqlite3-node20` alias: drop the alias with Node 20.
 */
export const SqliteDatabase: typeof Database =
  Number(process.versions.napi) >= 10 ? Database : Node20Database;

/**
 * Where a test file names the backends of the suites it imports (test/cluster/galera-backend.ts),
 * read by test/helpers/database.ts when it loads: a module of its own, so that naming them does
 * not load database.ts first. Jest gives each test file its own global object.
 */
export const BACKENDS_GLOBAL = '__quizTestBackends';

import { BACKENDS_GLOBAL } from '../helpers/backend-selection';

/**
 * Imported before a suite written with `describe.each(BACKENDS)`: this test file runs that suite
 * on the Galera cluster of the cluster tier only (test/helpers/database.ts reads the name when
 * the suite imports it; jest gives each test file its own global object and module registry).
 */
(globalThis as Record<string, unknown>)[BACKENDS_GLOBAL] = ['Galera'];

import type { DataSource } from 'typeorm';
import type { DataSet } from '../../db/entities/data-set.entity';

/**
 * Headers of data sets (owner, item type, sizes, parameters, expiry) this process has made or
 * read. A header never changes once its set is made, and its expiry is checked on every use,
 * so a remembered header answers exactly as the row would: the database is still the only
 * store of sets, and any instance reads a set another made. Bounded; least recently used first
 * out. One cache per data source.
 */

const CAPACITY = 10_000;
const caches = new WeakMap<DataSource, Map<number, DataSet>>();

function cacheOf(dataSource: DataSource): Map<number, DataSet> {
  let cache = caches.get(dataSource);
  if (!cache) {
    cache = new Map();
    caches.set(dataSource, cache);
  }
  return cache;
}

export function rememberDataSet(dataSource: DataSource, set: DataSet): void {
  const cache = cacheOf(dataSource);
  cache.delete(set.id);
  cache.set(set.id, set);
  if (cache.size > CAPACITY) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
}

/** The remembered header of set `id`, if any (marked as the most recently used). */
export function rememberedDataSet(dataSource: DataSource, id: number): DataSet | undefined {
  const cache = cacheOf(dataSource);
  const set = cache.get(id);
  if (set) {
    cache.delete(id);
    cache.set(id, set);
  }
  return set;
}

/** Sets deleted from the database (the cleanup job) are forgotten at once. */
export function forgetDataSets(dataSource: DataSource, ids: readonly number[]): void {
  const cache = cacheOf(dataSource);
  for (const id of ids) cache.delete(id);
}

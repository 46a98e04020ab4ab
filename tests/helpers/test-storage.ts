/**
 * The storage engine stage tests run on: the embedded SQLite engine, or PostgreSQL when
 * NUTCH_TEST_STORAGE=postgres (tests/run-tests.mjs then starts one throwaway cluster for the run and
 * passes its URL in NUTCH_TEST_STORAGE_URL). Each context gets a PostgreSQL schema of its own, so
 * tests that name the same relative paths never share stores.
 */
let contexts = 0;

export function testStorageEngine(): 'sqlite' | 'postgres' {
  return process.env.NUTCH_TEST_STORAGE === 'postgres' ? 'postgres' : 'sqlite';
}

/** storage.url for a new test context: '' (embedded) or a fresh schema on the run's cluster. */
export function testStorageUrl(): string {
  if (testStorageEngine() !== 'postgres') return '';
  const base = process.env.NUTCH_TEST_STORAGE_URL;
  if (!base) throw new Error('NUTCH_TEST_STORAGE=postgres needs NUTCH_TEST_STORAGE_URL (run the tests through tests/run-tests.mjs, which starts a cluster)');
  return `${base}${base.includes('?') ? '&' : '?'}schema=t_${process.pid}_${++contexts}`;
}

/** True when stores are SQLite files under the paths given (tests of the file layout itself). */
export function storesAreFiles(): boolean {
  return testStorageEngine() === 'sqlite';
}

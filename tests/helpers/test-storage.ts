/**
 * The storage engine stage tests run on: the embedded SQLite engine, or PostgreSQL when
 * NUTCH_TEST_STORAGE=postgres (tests/run-tests.mjs then starts one throwaway cluster for the run and
 * passes its URL in NUTCH_TEST_STORAGE_URL). Every test file (process) gets a PostgreSQL schema of its
 * own, shared by its fixture contexts and the CLI runs it starts (runNutch, spawnNutch), so a store a
 * test writes through its context is the one the CLI reads. Tests give stores absolute temp paths.
 */

export function testStorageEngine(): 'sqlite' | 'postgres' {
  return process.env.NUTCH_TEST_STORAGE === 'postgres' ? 'postgres' : 'sqlite';
}

/** storage.url for a test context or CLI run: '' (embedded) or this test process's schema on the run's cluster. */
export function testStorageUrl(): string {
  if (testStorageEngine() !== 'postgres') return '';
  const base = process.env.NUTCH_TEST_STORAGE_URL;
  if (!base) throw new Error('NUTCH_TEST_STORAGE=postgres needs NUTCH_TEST_STORAGE_URL (run the tests through tests/run-tests.mjs, which starts a cluster)');
  return `${base}${base.includes('?') ? '&' : '?'}schema=t_${process.pid}`;
}

/** `{ 'storage.url': … }` for createNutch()'s config when the tests run on PostgreSQL, else nothing. */
export function testStorageConfig(): Record<string, string> {
  const url = testStorageUrl();
  return url ? { 'storage.url': url } : {};
}

/** True when stores are SQLite files under the paths given (tests of the file layout itself). */
export function storesAreFiles(): boolean {
  return testStorageEngine() === 'sqlite';
}

/** `storage.url=…` for a child process that must open the same stores as `ctx` (none on the embedded engine). */
export function storageDefine(ctx: { conf: { getString(key: string, dflt?: string): string } }): string[] {
  const url = ctx.conf.getString('storage.url', '');
  return url ? [`storage.url=${url}`] : [];
}

/** Fails unless the CrawlDb's writer lock is free (a session can begin), on either engine. */
export async function assertUnlocked(ctx: { storage: { openCrawlDb(p: string): Promise<{ beginUpdate(): Promise<{ abort(): Promise<void> }>; close(): Promise<void> }> } }, crawlDb: string): Promise<void> {
  const db = await ctx.storage.openCrawlDb(crawlDb);
  try {
    await (await db.beginUpdate()).abort();
  } finally {
    await db.close();
  }
}

/** `-D storage.url=…` appended to a CLI run's arguments when the tests run on PostgreSQL (unless the test chose one). */
export function cliStorageArgs(argv: readonly string[]): string[] {
  const url = testStorageUrl();
  if (!url || argv.some((a) => a.includes('storage.url='))) return [];
  return ['-D', `storage.url=${url}`];
}

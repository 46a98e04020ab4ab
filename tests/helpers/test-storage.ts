/**
 * The storage engine stage tests run on: the embedded SQLite engine, or PostgreSQL when
 * NUTCH_TEST_STORAGE=postgres (tests/run-tests.mjs then starts one throwaway cluster for the run and
 * passes its URL in NUTCH_TEST_STORAGE_URL). The stores of one working directory live in a PostgreSQL
 * schema of their own (`t_<pid>_<hash of the directory>`), shared by the fixture contexts made with
 * that cwd and the CLI runs started in it (runNutch, spawnNutch), so a store a test writes through its
 * context is the one the CLI reads — and two tests of a file that both crawl into a relative `crawl`
 * (a store named `crawl/crawldb` on PostgreSQL) never see each other's data. A CLI run in another
 * directory than the context that wrote its stores passes storageDefine(ctx).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

export function testStorageEngine(): 'sqlite' | 'postgres' {
  return process.env.NUTCH_TEST_STORAGE === 'postgres' ? 'postgres' : 'sqlite';
}

/** storage.url for a test context or CLI run working in `cwd`: '' (embedded) or that directory's schema on the run's cluster. */
export function testStorageUrl(cwd?: string): string {
  if (testStorageEngine() !== 'postgres') return '';
  const base = process.env.NUTCH_TEST_STORAGE_URL;
  if (!base) throw new Error('NUTCH_TEST_STORAGE=postgres needs NUTCH_TEST_STORAGE_URL (run the tests through tests/run-tests.mjs, which starts a cluster)');
  const dir = cwd === undefined ? '' : `_${createHash('sha1').update(path.resolve(cwd)).digest('hex').slice(0, 10)}`;
  return `${base}${base.includes('?') ? '&' : '?'}schema=t_${process.pid}${dir}`;
}

/** `{ 'storage.url': … }` for createNutch()'s config when the tests run on PostgreSQL, else nothing. */
export function testStorageConfig(cwd: string): Record<string, string> {
  const url = testStorageUrl(cwd);
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

/** `-D storage.url=…` for a CLI run in another directory that must open the same stores as `ctx` (nothing on the embedded engine). */
export function storageArgs(ctx: { conf: { getString(key: string, dflt?: string): string } }): string[] {
  return storageDefine(ctx).flatMap((d) => ['-D', d]);
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

/** Arguments that run no command, so get no storage.url (it would be read as a command name or a help topic). */
const NO_COMMAND = new Set(['help', '-h', '--help', '--version', '-version']);

/** `-D storage.url=…` for a CLI run's arguments when the tests run on PostgreSQL (unless the test chose one, or runs no command). */
export function cliStorageArgs(argv: readonly string[], cwd: string): string[] {
  const url = testStorageUrl(cwd);
  if (!url || argv.length === 0 || NO_COMMAND.has(argv[0]!) || argv.some((a) => a.includes('storage.url='))) return [];
  return ['-D', `storage.url=${url}`];
}

/** A CLI run's arguments with cliStorageArgs before a `--` (after it, `-D` would be a positional argument), else at the end. */
export function withTestStorage(argv: readonly string[], cwd: string): string[] {
  const extra = cliStorageArgs(argv, cwd);
  const end = argv.indexOf('--');
  return end < 0 ? [...argv, ...extra] : [...argv.slice(0, end), ...extra, ...argv.slice(end)];
}

/**
 * Test options for a test that checks the embedded engine's file layout itself (a store that is a
 * regular file, a `.locked` file, the disk filling up): skipped on PostgreSQL, with the reason, which
 * the spec reporter prints, so a PostgreSQL run says how many tests it did not run and why.
 */
export function sqliteOnly(reason: string): { skip?: string } {
  return storesAreFiles() ? {} : { skip: `SQLite only: ${reason}` };
}

/**
 * Test contexts: no built-ins unless asked, an empty NUTCH_CONF_DIR (so no nutch-site.json from the
 * developer's tree leaks in), a memory logger whose records tests assert on.
 */
import { createContext, type CreateContextOptions, type NutchContext } from '../../core/crawl/context.js';
import { createMemoryLogger, type MemoryLogger } from '../../core/log.js';
import { tempDir } from './temp-dir.js';
import { testStorageUrl } from './test-storage.js';

export type TestNutchContext = NutchContext & { log: MemoryLogger };

/**
 * The directory whose PostgreSQL schema the contexts of one test share when they are given no cwd
 * (or are built by a helper that asks for it): the first such context's. On SQLite two contexts of a
 * test open the same store files by absolute path; on PostgreSQL they must share a schema for that.
 */
const firstDirOfTest = new WeakMap<object, string>();

export function sharedStorageDir(t: object, dir: string): string {
  if (!firstDirOfTest.has(t)) firstDirOfTest.set(t, dir);
  return firstDirOfTest.get(t)!;
}

export function fixtureContext(
  t: { after(fn: () => void | Promise<void>): void },
  opts: CreateContextOptions = {},
  storageDir?: string,
): TestNutchContext {
  const confDir = opts.cwd ?? tempDir(t);
  const log = createMemoryLogger();
  // NUTCH_TEST_STORAGE=postgres runs every stage test on PostgreSQL (tests/helpers/test-storage.ts)
  const storageUrl = opts.storage ? '' : testStorageUrl(storageDir ?? (opts.cwd ?? sharedStorageDir(t, confDir)));
  const config = storageUrl ? { 'storage.url': storageUrl, ...opts.config } : opts.config;
  const ctx = createContext({ includeBuiltins: false, cwd: confDir, root: confDir, env: { NUTCH_CONF_DIR: confDir }, logger: log, ...opts, ...(config ? { config } : {}) });
  t.after(() => ctx.close());
  return ctx as TestNutchContext;
}

/** The messages logged at `level` (default warn). */
export function logged(ctx: { log: MemoryLogger }, level = 'warn'): string[] {
  return ctx.log.records.filter((r) => r.level === level).map((r) => r.msg);
}

/** Global recorder the fixture plugins write to (imports, constructions, start/stop). */
export interface FixtureRecorder {
  imports: string[];
  events: string[];
}

export function recorder(): FixtureRecorder {
  const g = globalThis as { __nutchFixture?: FixtureRecorder };
  g.__nutchFixture ??= { imports: [], events: [] };
  return g.__nutchFixture;
}

export function resetRecorder(): FixtureRecorder {
  const r = recorder();
  r.imports.length = 0;
  r.events.length = 0;
  return r;
}

/**
 * A real crawl of the test web for the tool tests (warc, merge*, dump, domainstats, …): the test web
 * is started, crawled in-process by createNutch into `<cwd>/<crawlDir>` (on the test run's storage engine),
 * and left running for the test.
 */
import type { TestContext } from 'node:test';
import { createNutch } from '../../sdk/create-nutch.js';
import { createMemoryLogger } from '../../core/log.js';
import { startTestWeb, type TestWeb, type TestWebOptions } from '../web/test-web.js';
import { tempDir } from './temp-dir.js';
import { testStorageConfig } from './test-storage.js';
import { join } from 'node:path';

export interface CrawledWeb {
  web: TestWeb;
  cwd: string;
}

export async function startWeb(t: TestContext, options: TestWebOptions): Promise<TestWeb> {
  const web = await startTestWeb(options);
  t.after(() => web.close());
  return web;
}

/** Crawls `seeds` (default every host's home page) for `rounds` rounds into `<cwd>/<crawlDir>`. */
export async function crawlInto(cwd: string, seeds: string[], opts: { crawlDir?: string; rounds?: number; config?: Record<string, unknown> } = {}): Promise<void> {
  const nutch = await createNutch({
    cwd,
    crawlDir: join(cwd, opts.crawlDir ?? 'crawl'),
    logger: createMemoryLogger(),
    config: { 'http.agent.name': 'tools-test', 'fetcher.server.delay': 0.01, ...testStorageConfig(cwd), ...opts.config },
  });
  try {
    await nutch.crawl({ seeds, rounds: opts.rounds ?? 2, index: false }).result;
  } finally {
    await nutch.close();
  }
}

export async function crawledWeb(t: TestContext, options: TestWebOptions, opts: { rounds?: number; config?: Record<string, unknown> } = {}): Promise<CrawledWeb> {
  const web = await startWeb(t, options);
  const cwd = tempDir(t);
  await crawlInto(cwd, web.seeds, opts);
  return { web, cwd };
}

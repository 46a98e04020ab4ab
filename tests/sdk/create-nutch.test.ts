/** createNutch(): the embedding API driven against the local test web — real crawl, real stores. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNutch } from '../../sdk/create-nutch.js';
import { createMemoryLogger } from '../../core/log.js';
import { CrawlStatus } from '../../core/model/crawl-datum.js';
import type { ProgressEvent } from '../../core/crawl/progress.js';
import { startTestWeb } from '../web/test-web.js';
import { tempDir } from '../helpers/temp-dir.js';

const fast = { 'http.agent.name': 'sdk-test', 'fetcher.server.delay': 0.01, 'fetcher.threads.fetch': 8 };

test('crawl() yields typed events, indexes, and search finds the crawled pages', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 8, linksPerPage: 4, seed: 11 });
  t.after(() => web.close());
  const cwd = tempDir(t);
  const nutch = await createNutch({ cwd, crawlDir: 'crawl', config: fast, logger: createMemoryLogger() });
  try {
    const events: ProgressEvent[] = [];
    const run = nutch.crawl({ seeds: web.seeds, rounds: 2, topN: 100 });
    for await (const e of run) events.push(e);
    const summary = await run.result;
    const ends = events.filter((e) => e.type === 'stage-end').map((e) => `${e.stage}${e.round ?? ''}`);
    assert.deepEqual(ends.slice(0, 9), ['inject', 'generate1', 'fetch1', 'parse1', 'updatedb1', 'invertlinks1', 'dedup1', 'index1', 'clean1']);
    assert.equal(ends.at(-1), 'crawl');
    assert.equal(summary.rounds, 2);
    assert.ok(summary['fetch.success']! >= web.seeds.length);
    assert.ok(existsSync(join(cwd, 'crawl', 'crawldb')) && existsSync(join(cwd, 'crawl', 'segments')));

    const home = web.seeds[0]!;
    const datum = await nutch.readdb(home);
    assert.equal(datum?.status, CrawlStatus.STATUS_DB_FETCHED);

    const hits = await nutch.search('"Host 0 page 0"', { limit: 3 });
    assert.ok(hits.length > 0, 'search found the home page');
    assert.equal(hits[0]!.url, home);
  } finally {
    await nutch.close();
  }
});

test('calling crawl() again continues the same crawl', async (t) => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 12, linksPerPage: 3, seed: 5 });
  t.after(() => web.close());
  const cwd = tempDir(t);
  const nutch = await createNutch({ cwd, config: fast, logger: createMemoryLogger() });
  try {
    const first = await nutch.crawl({ seeds: web.seeds, rounds: 1, index: false }).result;
    assert.equal(first['fetch.success'], 1);
    const second = await nutch.crawl({ rounds: 1, index: false }).result;
    assert.ok(second['fetch.success']! > 0, 'the second crawl fetched the outlinks found by the first');
    assert.equal(second['inject.urls_injected'], undefined, 'nothing was injected again');
    assert.equal((await nutch.readdb(web.seeds[0]!))?.status, CrawlStatus.STATUS_DB_FETCHED);
  } finally {
    await nutch.close();
  }
});

test('a .STOP file in the crawl directory ends the loop before the next round', async (t) => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 4, linksPerPage: 2, seed: 2 });
  t.after(() => web.close());
  const cwd = tempDir(t);
  const nutch = await createNutch({ cwd, config: fast, logger: createMemoryLogger() });
  try {
    await nutch.inject(web.seeds);
    writeFileSync(join(nutch.crawlDir, '.STOP'), '');
    const s = await nutch.crawl({ rounds: 3 }).result;
    assert.equal(s['stopped.by.file'], 1);
    assert.equal(s.rounds, undefined);
  } finally {
    await nutch.close();
  }
});

test('two crawlers in one process keep separate configuration and plugins', async (t) => {
  const cwd = tempDir(t);
  const seen: string[] = [];
  const a = await createNutch({
    cwd, crawlDir: 'a', logger: createMemoryLogger(),
    config: { 'http.agent.name': 'bot-a' },
    plugins: [{ id: 'object-filter', extensions: [{ point: 'URLFilter', implementation: class { filter(u: string) { seen.push(u); return u.includes('deny') ? null : u; } } }] }],
  });
  const b = await createNutch({ cwd, crawlDir: 'b', logger: createMemoryLogger(), config: { 'http.agent.name': 'bot-b', 'plugin.includes': 'urlfilter-validator' } });
  try {
    assert.equal(a.context.conf.getString('http.agent.name'), 'bot-a');
    assert.equal(b.context.conf.getString('http.agent.name'), 'bot-b');
    assert.notEqual(a.context.plugins, b.context.plugins);
    assert.equal(b.context.plugins.descriptor('object-filter'), undefined);
    const injected = await a.inject(['http://127.0.0.1/ok', 'http://127.0.0.1/deny']);
    assert.equal(injected.urls_injected, 1);
    assert.ok(seen.includes('http://127.0.0.1/deny'), 'the object plugin filtered the seeds');
  } finally {
    await a.close();
    await b.close();
  }
});

test('after close() every method refuses with NUTCH_CLOSED', async (t) => {
  const nutch = await createNutch({ cwd: tempDir(t), config: fast, logger: createMemoryLogger() });
  await nutch.close();
  await assert.rejects(nutch.inject(['http://127.0.0.1/']), { code: 'NUTCH_CLOSED' });
});

test('aborting the signal stops the crawl politely and the crawl can be resumed', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 30, linksPerPage: 6, latencyMs: 20, seed: 9 });
  t.after(() => web.close());
  const cwd = tempDir(t);
  const controller = new AbortController();
  const nutch = await createNutch({ cwd, config: fast, logger: createMemoryLogger(), signal: controller.signal });
  try {
    const run = nutch.crawl({ seeds: web.seeds, rounds: 5 });
    for await (const e of run) if (e.type === 'stage-end' && e.stage === 'updatedb') controller.abort();
    const s = await run.result;
    assert.equal(s['stopped.by.signal'], 1);
    assert.ok((s.rounds ?? 0) < 5);
  } finally {
    await nutch.close();
  }
  const again = await createNutch({ cwd, config: fast, logger: createMemoryLogger() });
  try {
    const s = await again.crawl({ rounds: 1, index: false }).result;
    assert.equal(s.rounds, 1);
  } finally {
    await again.close();
  }
});

test('break out of for await stops the crawl politely: committed stores, nothing left running, crawl() continues', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 30, linksPerPage: 6, latencyMs: 20, seed: 11 });
  t.after(() => web.close());
  const cwd = tempDir(t);
  const nutch = await createNutch({ cwd, config: fast, logger: createMemoryLogger() });
  try {
    const run = nutch.crawl({ seeds: web.seeds, rounds: 5 });
    let pages = 0;
    for await (const e of run) {
      if (e.type === 'page' && e.stage === 'fetch' && ++pages === 3) break;
    }
    // The break returned only once the loop had stopped: the summary is there already.
    const s = await Promise.race([run.result, Promise.resolve(null)]);
    assert.ok(s, 'the crawl has settled when the loop is left');
    assert.equal(s['stopped.by.signal'], 1);
    assert.ok((s.rounds ?? 0) < 5);
    const requestsAfterBreak = [...web.requestLog.values()].flat().length;
    await new Promise((r) => setTimeout(r, 200));
    assert.equal([...web.requestLog.values()].flat().length, requestsAfterBreak, 'no request after the loop was left');
    // The stores are intact: the seed fetched before the break is in the CrawlDb, and a new crawl continues.
    const next = await nutch.crawl({ rounds: 1, index: false }).result;
    assert.equal(next.rounds, 1);
    assert.ok(await nutch.readdb(web.seeds[0]!));
  } finally {
    await nutch.close();
  }
});

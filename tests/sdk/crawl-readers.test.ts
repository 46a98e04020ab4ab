/**
 * nutch.crawlDb / linkDb / segments: what readdb, readlinkdb and readseg print, as values, checked
 * against the test web (which knows its links) and against the CLI's own output for the same crawl.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNutch } from '../../sdk/create-nutch.js';
import { createMemoryLogger } from '../../core/log.js';
import { CrawlStatus } from '../../core/model/crawl-datum.js';
import { startTestWeb } from '../web/test-web.js';
import { tempDir } from '../helpers/temp-dir.js';
import { testStorageConfig } from '../helpers/test-storage.js';
import { runNutch } from '../helpers/cli.js';

test('crawlDb, linkDb and segments read what the crawl wrote, as the CLI readers do', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 6, linksPerPage: 3, seed: 3, robots: true });
  t.after(() => web.close());
  const cwd = tempDir(t);
  const nutch = await createNutch({ cwd, config: { 'http.agent.name': 'readers-test', 'fetcher.server.delay': 0.01, ...testStorageConfig(cwd) }, logger: createMemoryLogger() });
  try {
    await nutch.crawl({ seeds: web.seeds, rounds: 2, index: false }).result;

    // readdb -stats: the same totals the CLI prints as JSON
    const stats = await nutch.crawlDb.stats({ sort: true });
    const cli = await runNutch(['readdb', 'crawl/crawldb', '-stats', '-json'], { cwd });
    assert.equal(cli.code, 0, cli.stderr);
    const printed = JSON.parse(cli.stdout) as { totalUrls: number };
    assert.equal(stats.total, printed.totalUrls);
    assert.ok(stats.status[CrawlStatus.STATUS_DB_FETCHED]! >= 2);
    const host0 = new URL(web.seeds[0]!).host.split(':')[0]!;
    assert.ok(stats.statusByHost?.[CrawlStatus.STATUS_DB_FETCHED]?.[host0]! >= 1, 'per-host counts under each status');

    // readdb -dump: every record, in URL order; the status filter as -status
    const all: string[] = [];
    for await (const r of nutch.crawlDb.dump()) all.push(r.url);
    assert.equal(all.length, stats.total);
    assert.deepEqual(all, [...all].sort());
    const fetched: string[] = [];
    for await (const r of nutch.crawlDb.dump({ status: 'DB_FETCHED' })) {
      assert.equal(r.datum.status, CrawlStatus.STATUS_DB_FETCHED);
      fetched.push(r.url);
    }
    assert.equal(fetched.length, stats.status[CrawlStatus.STATUS_DB_FETCHED]);
    // break out of a dump closes the store; a later read still works
    for await (const _ of nutch.crawlDb.dump()) break;
    assert.equal((await nutch.crawlDb.get(web.seeds[0]!))?.status, CrawlStatus.STATUS_DB_FETCHED);
    assert.equal(await nutch.crawlDb.get('http://127.0.0.1:1/never'), null);

    // readdb -topN: the same lines the CLI writes
    const top = await nutch.crawlDb.topN(3);
    assert.equal(top.length, 3);
    assert.ok(top[0]!.score >= top[1]!.score && top[1]!.score >= top[2]!.score);
    const topCli = await runNutch(['readdb', 'crawl/crawldb', '-topN', '3', 'top'], { cwd });
    assert.equal(topCli.code, 0, topCli.stderr);
    const topUrls = readFileSync(join(cwd, 'top', 'part-r-00000'), 'utf8').trim().split('\n').map((l) => l.split('\t')[1]);
    assert.deepEqual(top.map((s) => s.url), topUrls);

    // readlinkdb: the inlinks of a page are the test web's links to it
    const linked: string[] = [];
    for await (const r of nutch.linkDb.dump()) {
      for (const l of r.inlinks.inlinks) assert.ok(web.linksOf(l.fromUrl).includes(r.url), `${l.fromUrl} links to ${r.url}`);
      linked.push(r.url);
    }
    assert.ok(linked.length > 0);
    const inlinks = await nutch.linkDb.get(linked[0]!);
    assert.ok(inlinks && inlinks.inlinks.length > 0);
    assert.equal(await nutch.linkDb.get('http://127.0.0.1:1/never'), null);

    // readseg -list and -get
    const names = await nutch.segments.names();
    assert.equal(names.length, 2);
    const listing = await nutch.segments.list();
    assert.deepEqual(listing.map((l) => l.incomplete), [[], []]);
    assert.equal(listing[0]!.generated, web.seeds.length);
    assert.equal(listing[0]!.fetched, web.seeds.length);
    const records = await nutch.segments.get(listing[0]!.name, web.seeds[0]!);
    assert.equal(records.crawl_fetch?.[0]?.status, CrawlStatus.STATUS_FETCH_SUCCESS);
    assert.match(records.parse_data?.[0]?.title ?? '', /Host 0 page 0/);
    assert.ok(records.content?.[0]?.content.length);
    const onlyText = await nutch.segments.get(names[0]!, web.seeds[0]!, ['parse_text']);
    assert.deepEqual(Object.keys(onlyText), ['parse_text']);
  } finally {
    await nutch.close();
  }
});

test('reading a CrawlDb or LinkDb that does not exist names it', async (t) => {
  const cwd = tempDir(t);
  const nutch = await createNutch({ cwd, config: { 'http.agent.name': 'readers-test', ...testStorageConfig(cwd) }, logger: createMemoryLogger() });
  try {
    await assert.rejects(nutch.crawlDb.stats(), (e: { code?: string; message: string }) => e.code === 'NUTCH_STORAGE_NOT_FOUND' && e.message.includes(join(cwd, 'crawl', 'crawldb')));
    await assert.rejects(nutch.linkDb.get('http://x/'), (e: { code?: string; message: string }) => e.code === 'NUTCH_STORAGE_NOT_FOUND' && e.message.includes('linkdb'));
    await assert.rejects(nutch.crawlDb.topN(0), (e: { code?: string }) => e.code === 'NUTCH_STORAGE_NOT_FOUND' || e.code === 'NUTCH_USAGE');
    assert.deepEqual(await nutch.segments.list(), []);
  } finally {
    await nutch.close();
  }
});

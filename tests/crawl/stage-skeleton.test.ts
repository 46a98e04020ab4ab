/**
 * The tools beside the crawl cycle run on the same stage skeleton (core/crawl/stage-run.ts) as the
 * stages: freegen, sitemap, mergedb, mergelinkdb, mergesegs, readdb and updatehostdb each emit
 * stage-start and then stage-end carrying the counters they return, and a polite stop (the first
 * abort) leaves what they write as it was and counts `stopped`.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlStatus as S } from '../../core/model/crawl-datum.js';
import type { Counters, ProgressEvent, StageName, StageOptions } from '../../core/crawl/progress.js';
import type { StorageEngine } from '../../core/storage/interfaces.js';
import { freegen } from '../../core/crawl/freegen/freegen.js';
import { sitemap } from '../../core/crawl/sitemap/sitemap-processor.js';
import { mergedb } from '../../core/crawl/mergedb/mergedb.js';
import { mergelinkdb } from '../../core/crawl/mergelinkdb/mergelinkdb.js';
import { mergesegs } from '../../core/crawl/mergesegs/mergesegs.js';
import { readdb } from '../../core/crawl/readdb/readdb.js';
import { updateHostDb } from '../../core/crawl/hostdb/update-hostdb.js';
import { fixtureContext, type TestNutchContext } from '../helpers/context.js';
import { startWeb } from '../helpers/crawled-web.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { dbDatum, readCrawlDb, writeCrawlDb, writeSegment } from '../updatedb/segment-fixtures.js';

const A = 'http://a.example/';
const B = 'http://b.example/';

interface Crawl {
  ctx: TestNutchContext;
  dir: string;
  crawlDb: string;
  linkDb: string;
  segments: string[];
}

async function crawl(t: TestContext, seeds: string[] = [A, B]): Promise<Crawl> {
  const dir = tempDir(t);
  const ctx = fixtureContext(t, { includeBuiltins: true, config: { 'http.agent.name': 'skeleton-test' } });
  const crawlDb = join(dir, 'crawldb');
  const linkDb = join(dir, 'linkdb');
  await writeCrawlDb(ctx.storage, crawlDb, Object.fromEntries(seeds.map((u) => [u, dbDatum(S.STATUS_DB_UNFETCHED)])));
  await writeLinkDb(ctx.storage, linkDb, { [B]: A });
  const segments = [
    await writeSegment(ctx.storage, join(dir, 'segments'), '20240101000000', { pages: [{ url: A, outlinks: { [B]: 1 } }] }),
    await writeSegment(ctx.storage, join(dir, 'segments'), '20240102000000', { pages: [{ url: B }] }),
  ];
  writeFile(join(dir, 'urls', 'seeds.txt'), seeds.join('\n') + '\n');
  return { ctx, dir, crawlDb, linkDb, segments };
}

async function writeLinkDb(storage: StorageEngine, path: string, links: Record<string, string>): Promise<void> {
  const db = await storage.openLinkDb(path);
  const up = await db.beginUpdate();
  await up.put(Object.entries(links).map(([url, fromUrl]) => ({ url, value: { inlinks: [{ fromUrl, anchor: 'x' }] } })));
  await up.commit();
  await db.close();
}

async function readLinkDb(storage: StorageEngine, path: string): Promise<Record<string, unknown>> {
  const db = await storage.openLinkDb(path);
  const out: Record<string, unknown> = {};
  for await (const { url, value } of db.scan()) out[url] = value;
  await db.close();
  return out;
}

/** Runs a tool with a recorder; returns its counters and the events it emitted. */
async function recorded(fn: (opts: StageOptions) => Promise<Counters | { counters: Counters }>, signal?: AbortSignal): Promise<{ counters: Counters; events: ProgressEvent[] }> {
  const events: ProgressEvent[] = [];
  const r = await fn({ signal, onProgress: (e) => events.push(e) });
  return { counters: 'counters' in r && typeof r.counters === 'object' ? (r as { counters: Counters }).counters : r as Counters, events };
}

function assertSkeleton(stage: StageName, { counters, events }: { counters: Counters; events: ProgressEvent[] }): void {
  const first = events[0];
  const last = events.at(-1);
  assert.equal(first?.type, 'stage-start', `${stage}: first event`);
  assert.equal(first?.stage, stage);
  assert.equal(last?.type, 'stage-end', `${stage}: last event`);
  assert.equal(last?.stage, stage);
  assert.deepEqual(last?.type === 'stage-end' ? last.counters : null, counters, `${stage}: stage-end carries the counters returned`);
  assert.equal(events.filter((e) => e.type === 'stage-start' || e.type === 'stage-end').length, 2, `${stage}: one start, one end`);
}

function stopped(): AbortSignal {
  const ac = new AbortController();
  ac.abort();
  return ac.signal;
}

test('freegen, mergedb, mergelinkdb, mergesegs, readdb and updatehostdb: stage-start, then stage-end with the counters returned', async (t) => {
  const c = await crawl(t);
  const { ctx } = c;
  const free = await recorded((o) => freegen(ctx, { inputDir: join(c.dir, 'urls'), segmentsDir: join(c.dir, 'free') }, o));
  assertSkeleton('freegen', free);
  assert.equal(free.counters.urls_generated, 2);

  const db = await recorded((o) => mergedb(ctx, { output: join(c.dir, 'merged-db'), crawlDbs: [c.crawlDb] }, o));
  assertSkeleton('mergedb', db);
  assert.equal(db.counters['urls merged'], 2);

  const links = await recorded((o) => mergelinkdb(ctx, { output: join(c.dir, 'merged-links'), linkDbs: [c.linkDb] }, o));
  assertSkeleton('mergelinkdb', links);
  assert.equal(links.counters['urls merged'], 1);

  const segs = await recorded((o) => mergesegs(ctx, { output: join(c.dir, 'merged-segs'), segments: c.segments }, o));
  assertSkeleton('mergesegs', segs);
  assert.deepEqual([segs.counters['urls merged'], segs.counters['segments written']], [2, 1]);

  const read = await recorded((o) => readdb(ctx, { crawlDb: c.crawlDb, stats: true, print: () => undefined }, o));
  assertSkeleton('readdb', read);
  assert.equal(read.counters.urls, 2);

  const hosts = await recorded((o) => updateHostDb(ctx, { hostDb: join(c.dir, 'hostdb'), crawlDb: c.crawlDb }, o));
  assertSkeleton('updatehostdb', hosts);
  assert.equal(hosts.counters.total_hosts, 2);
});

test('sitemap: stage-start, then stage-end with the counters returned', async (t) => {
  const web = await startWeb(t, { hosts: 1, pagesPerHost: 4, linksPerPage: 1, robots: true, sitemaps: true, seed: 4 });
  const c = await crawl(t, web.seeds);
  const r = await recorded((o) => sitemap(c.ctx, { crawlDb: c.crawlDb }, o));
  assertSkeleton('sitemap', r);
  assert.ok(r.counters.new_sitemap_entries! > 0, JSON.stringify(r.counters));
  assert.equal((await readCrawlDb(c.ctx.storage, c.crawlDb)).size, 1 + r.counters.new_sitemap_entries!);
});

test('a polite stop: every tool leaves what it writes as it was, counts stopped and still ends its stage', async (t) => {
  const c = await crawl(t);
  const { ctx } = c;
  // outputs that exist before the stopped runs
  const mergedDb = join(c.dir, 'merged-db');
  const mergedLinks = join(c.dir, 'merged-links');
  await writeCrawlDb(ctx.storage, mergedDb, { 'http://old.example/': dbDatum(S.STATUS_DB_FETCHED) });
  await writeLinkDb(ctx.storage, mergedLinks, { 'http://old.example/': B });
  const crawlDbBefore = await readCrawlDb(ctx.storage, c.crawlDb);

  const free = await recorded((o) => freegen(ctx, { inputDir: join(c.dir, 'urls'), segmentsDir: join(c.dir, 'free') }, o), stopped());
  assertSkeleton('freegen', free);
  assert.equal(free.counters.stopped, 1);
  assert.deepEqual(readdirSync(c.dir).filter((f) => f === 'free'), [], 'no segment');

  const db = await recorded((o) => mergedb(ctx, { output: mergedDb, crawlDbs: [c.crawlDb] }, o), stopped());
  assertSkeleton('mergedb', db);
  assert.equal(db.counters.stopped, 1);
  assert.deepEqual([...(await readCrawlDb(ctx.storage, mergedDb)).keys()], ['http://old.example/'], 'output as it was');

  const links = await recorded((o) => mergelinkdb(ctx, { output: mergedLinks, linkDbs: [c.linkDb] }, o), stopped());
  assertSkeleton('mergelinkdb', links);
  assert.equal(links.counters.stopped, 1);
  assert.deepEqual(Object.keys(await readLinkDb(ctx.storage, mergedLinks)), ['http://old.example/']);

  const segs = await recorded((o) => mergesegs(ctx, { output: join(c.dir, 'merged-segs'), segments: c.segments }, o), stopped());
  assertSkeleton('mergesegs', segs);
  assert.equal(segs.counters.stopped, 1);
  assert.equal(segs.counters['segments written'], 0);
  assert.deepEqual(await ctx.storage.listSegments(join(c.dir, 'merged-segs')), [], 'no segment published');

  const map = await recorded((o) => sitemap(ctx, { crawlDb: c.crawlDb, sitemapUrls: join(c.dir, 'urls') }, o), stopped());
  assertSkeleton('sitemap', map);
  assert.equal(map.counters.stopped, 1);
  assert.deepEqual(await readCrawlDb(ctx.storage, c.crawlDb), crawlDbBefore);

  const hostDb = join(c.dir, 'hostdb');
  const hosts = await recorded((o) => updateHostDb(ctx, { hostDb, crawlDb: c.crawlDb }, o), stopped());
  assertSkeleton('updatehostdb', hosts);
  assert.equal(hosts.counters.stopped, 1);
  const h = await ctx.storage.openHostDb(hostDb);
  assert.equal(await h.exists(), false, 'the HostDb was not created');
  await h.close();
});

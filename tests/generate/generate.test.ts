import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { generate, generateSegments } from '../../core/crawl/generate/generate.js';
import { createCrawlDatum, type CrawlDatum } from '../../core/model/crawl-datum.js';
import { tempDir } from '../helpers/temp-dir.js';
import { assertUnlocked } from '../helpers/test-storage.js';
import { collect } from '../storage/storage-helpers.js';
import { doublingScoring, rejectFilter, stageContext } from '../storage/stage-context.js';
import type { NutchContext } from '../../core/crawl/context.js';

const NOW = Date.now();

async function crawlDbWith(ctx: NutchContext, dir: string, records: [string, Partial<CrawlDatum>][]): Promise<string> {
  const crawlDb = path.join(dir, 'crawldb');
  const db = await ctx.storage.openCrawlDb(crawlDb);
  const up = await db.beginUpdate();
  await up.put(records.map(([url, d]) => ({ url, value: createCrawlDatum({ status: 1, fetchTime: NOW - 1000, ...d }) })));
  await up.commit();
  await db.close();
  return crawlDb;
}

async function generated(ctx: NutchContext, segment: string, partition?: number) {
  const seg = await ctx.storage.openSegment(segment);
  const recs = await collect(seg.read('crawl_generate', { partition }));
  await seg.close();
  return recs;
}

test('selects the due URLs into one segment, crawl_generate complete, generate time stamped', async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t);
  const crawlDb = await crawlDbWith(ctx, dir, [['http://a.example/1', {}], ['http://a.example/2', {}], ['http://b.example/', {}]]);
  const { counters, segments } = await generateSegments(ctx, { crawlDb, segmentsDir: path.join(dir, 'segments') });
  assert.equal(counters.selected, 3);
  assert.equal(segments.length, 1);
  assert.match(path.basename(segments[0]), /^\d{14}$/);
  const written = await ctx.storage.openSegment(segments[0]);
  assert.deepEqual(await written.partitions('crawl_generate'), [0]);
  assert.equal(await written.isComplete('crawl_generate'), true, 'crawl_generate complete (_SUCCESS)');
  await written.close();
  const recs = await generated(ctx, segments[0]);
  assert.deepEqual(recs.map((r) => r.url).sort(), ['http://a.example/1', 'http://a.example/2', 'http://b.example/']);
  for (const r of recs) assert.ok(Number(r.value.metaData._ngt_[0]) >= NOW);
  const db = await ctx.storage.openCrawlDb(crawlDb);
  assert.equal((await db.get('http://b.example/'))!.metaData._ngt_, undefined, 'generate.update.crawldb is off by default');
  await db.close();
  await assertUnlocked(ctx, crawlDb);
});

test('not due: SCHEDULE_REJECTED and the "none due" reason; -adddays brings them forward', async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t);
  const crawlDb = await crawlDbWith(ctx, dir, [['http://a/', { fetchTime: NOW + 2 * 86_400_000 }]]);
  const segmentsDir = path.join(dir, 'segments');
  const c = await generate(ctx, { crawlDb, segmentsDir });
  assert.deepEqual([c.selected, c.SCHEDULE_REJECTED, c.NOTHING_SELECTED_NONE_DUE], [0, 1, 1]);
  assert.deepEqual(await ctx.storage.listSegments(segmentsDir), []);
  assert.deepEqual(await ctx.storage.discardStaleStagedSegments(segmentsDir), [], 'nor a staged one');
  const later = await generate(ctx, { crawlDb, segmentsDir, addDays: 3 });
  assert.equal(later.selected, 1);
});

test('topN keeps the best generatorSortValue first', async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t, {}, [doublingScoring]);
  const crawlDb = await crawlDbWith(ctx, dir, [['http://a/', { score: 0.5 }], ['http://b/', { score: 3 }], ['http://c/', { score: 2 }], ['http://d/', { score: 0.1 }]]);
  const { counters, segments } = await generateSegments(ctx, { crawlDb, segmentsDir: path.join(dir, 's'), topN: 2 });
  assert.equal(counters.selected, 2);
  assert.deepEqual((await generated(ctx, segments[0])).map((r) => r.url), ['http://b/', 'http://c/']);
});

test('generate.max.count per host, overflow into later segments up to maxNumSegments', async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t, { 'generate.max.count': 2 });
  const recs: [string, Partial<CrawlDatum>][] = [];
  for (let i = 0; i < 5; i++) recs.push([`http://a.example/${i}`, { score: 10 - i }]);
  recs.push(['http://b.example/', { score: 1 }]);
  const crawlDb = await crawlDbWith(ctx, dir, recs);
  const one = await generateSegments(ctx, { crawlDb, segmentsDir: path.join(dir, 's1') });
  assert.deepEqual([one.counters.selected, one.counters.URLS_SKIPPED_PER_HOST_OVERFLOW, one.counters.HOSTS_AFFECTED_PER_HOST_OVERFLOW], [3, 3, 1]);
  const three = await generateSegments(ctx, { crawlDb, segmentsDir: path.join(dir, 's3'), maxNumSegments: 3 });
  assert.equal(three.segments.length, 3);
  const per = await Promise.all(three.segments.map(async (s) => (await generated(ctx, s)).map((r) => r.url).sort()));
  assert.deepEqual(per, [
    ['http://a.example/0', 'http://a.example/1', 'http://b.example/'],
    ['http://a.example/2', 'http://a.example/3'],
    ['http://a.example/4'],
  ]);
  assert.equal(new Set(three.segments.map((s) => path.basename(s))).size, 3, 'unique segment names');
});

test('generate.count.mode domain counts subdomains together; all over max count has its reason', async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t, { 'generate.max.count': 1, 'generate.count.mode': 'domain' });
  const crawlDb = await crawlDbWith(ctx, dir, [['http://a.example.com/', { score: 2 }], ['http://b.example.com/', { score: 1 }], ['http://other.org/', {}]]);
  const c = await generate(ctx, { crawlDb, segmentsDir: path.join(dir, 's') });
  assert.deepEqual([c.selected, c.URLS_SKIPPED_PER_HOST_OVERFLOW], [2, 1]);
  const ctx0 = stageContext(t, { 'generate.max.count': 0 });
  const c0 = await generate(ctx0, { crawlDb, segmentsDir: path.join(dir, 's0') });
  assert.equal(c0.selected, 3, 'max.count 0 means no limit (as -1)');
});

test('numFetchers partitions: each host in exactly one partition, byHost and byDomain', async (t) => {
  const dir = tempDir(t);
  const recs: [string, Partial<CrawlDatum>][] = [];
  for (let h = 0; h < 12; h++) for (let i = 0; i < 3; i++) recs.push([`http://h${h}.site${h % 4}.com/${i}`, {}]);
  for (const mode of ['byHost', 'byDomain'] as const) {
    const ctx = stageContext(t, { 'partition.url.mode': mode });
    const crawlDb = await crawlDbWith(ctx, path.join(dir, mode), recs);
    const { segments, counters } = await generateSegments(ctx, { crawlDb, segmentsDir: path.join(dir, mode, 's'), numFetchers: 3 });
    assert.equal(counters.selected, 36);
    const seg = await ctx.storage.openSegment(segments[0]);
    assert.deepEqual(await seg.partitions('crawl_generate'), [0, 1, 2]);
    assert.equal(await seg.isComplete('crawl_generate'), true);
    const owner = new Map<string, number>();
    let total = 0;
    for (const p of [0, 1, 2]) {
      for (const r of await collect(seg.read('crawl_generate', { partition: p }))) {
        total++;
        const u = new URL(r.url);
        const key = mode === 'byHost' ? u.hostname : u.hostname.split('.').slice(1).join('.');
        assert.equal(owner.get(key) ?? p, p, `${key} split across partitions (${mode})`);
        owner.set(key, p);
      }
    }
    assert.equal(total, 36);
    await seg.close();
  }
});

test('generate.update.crawldb marks selected URLs: WAIT_FOR_UPDATE until crawl.gen.delay passes', async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t, { 'generate.update.crawldb': true });
  const crawlDb = await crawlDbWith(ctx, dir, [['http://a/', {}], ['http://b/', {}]]);
  const first = await generate(ctx, { crawlDb, segmentsDir: path.join(dir, 's'), topN: 1 });
  assert.equal(first.selected, 1);
  const db = await ctx.storage.openCrawlDb(crawlDb);
  const marked = (await collect(db.scan())).filter((r) => r.value.metaData._ngt_);
  assert.equal(marked.length, 1);
  const second = await generate(ctx, { crawlDb, segmentsDir: path.join(dir, 's') });
  assert.deepEqual([second.selected, second.WAIT_FOR_UPDATE], [1, 1], 'only the unmarked URL');
  const third = await generate(ctx, { crawlDb, segmentsDir: path.join(dir, 's') });
  assert.deepEqual([third.selected, third.WAIT_FOR_UPDATE, third.NOTHING_SELECTED_NONE_DUE], [0, 2, 1]);
  const ctxNoDelay = stageContext(t, { 'generate.update.crawldb': true, 'crawl.gen.delay': 0 });
  assert.equal((await generate(ctxNoDelay, { crawlDb, segmentsDir: path.join(dir, 's') })).selected, 2);
  await db.close();
});

test('filters, generate.min.score, generate.min.interval, generate.restrict.status; "all filtered" reason', async (t) => {
  const dir = tempDir(t);
  const recs: [string, Partial<CrawlDatum>][] = [
    ['http://reject.example/', {}],
    ['http://low.example/', { score: -1 }],
    ['http://long.example/', { fetchInterval: 10_000_000 }],
    ['http://fetched.example/', { status: 2 }],
  ];
  const ctx = stageContext(t, { 'generate.min.interval': 5_000_000, 'generate.restrict.status': 'db_unfetched' }, [rejectFilter, doublingScoring]);
  const crawlDb = await crawlDbWith(ctx, dir, recs);
  const c = await generate(ctx, { crawlDb, segmentsDir: path.join(dir, 's') });
  assert.deepEqual(
    [c.selected, c.URL_FILTERS_REJECTED, c.SCORE_TOO_LOW, c.INTERVAL_REJECTED, c.STATUS_REJECTED, c.NOTHING_SELECTED_ALL_FILTERED],
    [0, 1, 1, 1, 1, 1],
  );
  const loose = await generate(stageContext(t, {}, [rejectFilter]), { crawlDb, segmentsDir: path.join(dir, 's'), noFilter: true });
  assert.equal(loose.selected, 4);
});

test('an empty or missing CrawlDb; a locked CrawlDb is refused', async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t);
  await assert.rejects(generate(ctx, { crawlDb: path.join(dir, 'nope'), segmentsDir: path.join(dir, 's') }), { code: 'NUTCH_STORAGE_NOT_FOUND' });
  const crawlDb = await crawlDbWith(ctx, dir, []);
  const c = await generate(ctx, { crawlDb, segmentsDir: path.join(dir, 's') });
  assert.deepEqual([c.selected, c.NOTHING_SELECTED_EMPTY_CRAWLDB], [0, 1]);
  const db = await ctx.storage.openCrawlDb(crawlDb);
  const holder = await db.beginUpdate();
  await assert.rejects(generate(ctx, { crawlDb, segmentsDir: path.join(dir, 's') }), { code: 'NUTCH_STORAGE_LOCKED' });
  await holder.abort();
  await db.close();
});

test('an abort before writing leaves no segment and the CrawlDb unlocked', async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t, { 'storage.batch.size': 10 });
  const crawlDb = await crawlDbWith(ctx, dir, Array.from({ length: 100 }, (_, i) => [`http://a/${i}`, {}] as [string, Partial<CrawlDatum>]));
  const ac = new AbortController();
  const c = await generate(ctx, { crawlDb, segmentsDir: path.join(dir, 's') }, { signal: ac.signal, onProgress: (e) => { if (e.type === 'progress') ac.abort(); } });
  assert.deepEqual([c.selected, c.stopped], [0, 1]);
  assert.deepEqual(await ctx.storage.listSegments(path.join(dir, 's')), []);
  assert.deepEqual(await ctx.storage.discardStaleStagedSegments(path.join(dir, 's')), [], 'nor a staged one');
  await assertUnlocked(ctx, crawlDb);
});

test('partition.url.mode byIP groups by resolved address; the hash is Java\'s String.hashCode', async (t) => {
  const { javaStringHash } = await import('../../core/crawl/generate/url-partitioner.js');
  assert.equal(javaStringHash('hello'), 99162322);
  const dir = tempDir(t);
  const ctx = stageContext(t, { 'partition.url.mode': 'byIP' });
  const recs: [string, Partial<CrawlDatum>][] = [];
  for (let h = 1; h <= 6; h++) for (let i = 0; i < 4; i++) recs.push([`http://10.0.0.${h}/${i}`, {}]);
  const crawlDb = await crawlDbWith(ctx, dir, recs);
  const { segments } = await generateSegments(ctx, { crawlDb, segmentsDir: path.join(dir, 's'), numFetchers: 2 });
  const seg = await ctx.storage.openSegment(segments[0]);
  const owner = new Map<string, number>();
  for (const p of [0, 1]) {
    for (const r of await collect(seg.read('crawl_generate', { partition: p }))) {
      const ip = new URL(r.url).hostname;
      assert.equal(owner.get(ip) ?? p, p);
      owner.set(ip, p);
      assert.equal(p, (javaStringHash(ip) & 0x7fffffff) % 2);
    }
  }
  assert.equal(owner.size, 6);
  await seg.close();
});

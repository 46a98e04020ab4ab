/** The updatedb stage over real segments and a real CrawlDb. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { CrawlStatus as S } from '../../core/model/crawl-datum.js';
import { updatedb } from '../../core/crawl/updatedb/updatedb.js';
import type { ProgressEvent } from '../../core/crawl/progress.js';
import { fixtureContext, logged } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { dbDatum, readCrawlDb, writeCrawlDb, writeSegment, T0, INTERVAL } from './segment-fixtures.js';

const A = 'http://a.example/';
const B = 'http://a.example/b';
const C = 'http://c.example/';
const SIG = new Uint8Array([7, 7, 7]);

function setup(t: TestContext, defines: Record<string, string> = {}, extra: Parameters<typeof fixtureContext>[1] = {}) {
  const dir = tempDir(t);
  const ctx = fixtureContext(t, { includeBuiltins: true, defines, ...extra });
  return { ctx, crawlDb: path.join(dir, 'crawldb'), segmentsDir: path.join(dir, 'segments') };
}

test('updatedb merges a fetched page and adds its outlinks with their OPIC scores', async (t) => {
  const { ctx, crawlDb, segmentsDir } = setup(t);
  await writeCrawlDb(ctx.storage, crawlDb, { [A]: dbDatum(S.STATUS_DB_UNFETCHED, { metaData: { _ngt_: ['1'] } }) });
  const seg = await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages: [{ url: A, signature: SIG, outlinks: { [B]: 0.5, [C]: 0.5 } }] });
  const events: ProgressEvent[] = [];
  const counters = await updatedb(ctx, { crawlDb, segments: [seg] }, { onProgress: (e) => events.push(e) });
  const db = await readCrawlDb(ctx.storage, crawlDb);
  assert.deepEqual([...db.keys()], [A, B, C]);
  const a = db.get(A)!;
  assert.equal(a.status, S.STATUS_DB_FETCHED);
  assert.deepEqual([...a.signature!], [...SIG]);
  assert.equal(a.fetchTime, T0 + 1000 + INTERVAL * 1000);
  assert.deepEqual(a.metaData, {}, 'generate time removed');
  assert.equal(db.get(B)!.status, S.STATUS_DB_UNFETCHED);
  assert.equal(db.get(B)!.score, 0.5);
  assert.equal(db.get(C)!.score, 0.5);
  assert.equal(counters.db_fetched, 1);
  assert.equal(counters.db_unfetched, 2);
  assert.equal(counters.urls_added, 2);
  assert.equal(counters.outlinks, 2);
  assert.equal(counters.segments, 1);
  assert.deepEqual([events[0]!.type, events.at(-1)!.type], ['stage-start', 'stage-end']);
});

test('updatedb -noAdditions (and db.update.additions.allowed=false) only updates known URLs', async (t) => {
  for (const [args, defines] of [[{ noAdditions: true }, {}], [{}, { 'db.update.additions.allowed': 'false' }]] as const) {
    const { ctx, crawlDb, segmentsDir } = setup(t, defines);
    await writeCrawlDb(ctx.storage, crawlDb, { [A]: dbDatum(S.STATUS_DB_UNFETCHED), [C]: dbDatum(S.STATUS_DB_FETCHED, { score: 2 }) });
    const seg = await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages: [{ url: A, outlinks: { [B]: 0.5, [C]: 0.5 } }] });
    await updatedb(ctx, { crawlDb, segments: [seg], ...args });
    const db = await readCrawlDb(ctx.storage, crawlDb);
    assert.deepEqual([...db.keys()], [A, C]);
    assert.equal(db.get(C)!.score, 2.5, 'known URL still gets the inlink score');
  }
});

test('updatedb with db.update.purge.404 removes gone pages; without it they stay', async (t) => {
  for (const purge of [true, false]) {
    const { ctx, crawlDb, segmentsDir } = setup(t, { 'db.update.purge.404': String(purge) });
    await writeCrawlDb(ctx.storage, crawlDb, { [B]: dbDatum(S.STATUS_DB_GONE), [C]: dbDatum(S.STATUS_DB_FETCHED) });
    const seg = await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages: [{ url: A, status: S.STATUS_FETCH_GONE }] });
    const counters = await updatedb(ctx, { crawlDb, segments: [seg] });
    const db = await readCrawlDb(ctx.storage, crawlDb);
    // purging applies to the entries already gone in the CrawlDb; A only became gone in this run
    assert.deepEqual([...db.keys()], purge ? [A, C] : [A, B, C], `purge=${purge}`);
    assert.equal(db.get(A)!.status, S.STATUS_DB_GONE);
    if (purge) assert.equal(counters.gone_records_removed, 1);
  }
});

test('updatedb -filter and -normalize apply to segment and CrawlDb URLs alike', async (t) => {
  const filter = { id: 'test-filter', extensions: [{ point: 'URLFilter' as const, implementation: { filter: (u: string) => (u.includes('/blocked') ? null : u) } }] };
  const normalizer = { id: 'test-normalizer', extensions: [{ point: 'URLNormalizer' as const, implementation: { normalize: (u: string) => u.replace('/UPPER', '/upper') } }] };
  const { ctx, crawlDb, segmentsDir } = setup(t, {}, { plugins: [filter, normalizer] });
  await writeCrawlDb(ctx.storage, crawlDb, {
    'http://x.example/blocked/1': dbDatum(S.STATUS_DB_UNFETCHED),
    'http://x.example/UPPER': dbDatum(S.STATUS_DB_FETCHED, { score: 3 }),
    [C]: dbDatum(S.STATUS_DB_UNFETCHED),
  });
  const seg = await writeSegment(ctx.storage, segmentsDir, '20240101000000', {
    pages: [{ url: A, outlinks: { 'http://x.example/blocked/2': 0.5, 'http://x.example/UPPER': 0.25 } }],
  });
  const counters = await updatedb(ctx, { crawlDb, segments: [seg], filter: true, normalize: true });
  const db = await readCrawlDb(ctx.storage, crawlDb);
  assert.deepEqual([...db.keys()], [A, C, 'http://x.example/upper']);
  assert.equal(db.get('http://x.example/upper')!.status, S.STATUS_DB_FETCHED, 'renamed entry keeps its datum');
  assert.equal(db.get('http://x.example/upper')!.score, 3.25, 'and merges the inlink under its new name');
  assert.equal(counters.urls_filtered, 2);

  // Without the flags, nothing is filtered.
  const other = setup(t, {}, { plugins: [filter, normalizer] });
  await writeCrawlDb(other.ctx.storage, other.crawlDb, { 'http://x.example/blocked/1': dbDatum(S.STATUS_DB_UNFETCHED) });
  await updatedb(other.ctx, { crawlDb: other.crawlDb, segments: [await writeSegment(other.ctx.storage, other.segmentsDir, '20240101000000', { pages: [{ url: A }] })] });
  assert.deepEqual([...(await readCrawlDb(other.ctx.storage, other.crawlDb)).keys()], [A, 'http://x.example/blocked/1']);
});

test('updatedb skips a segment whose crawl_fetch is incomplete, with a warning naming the part', async (t) => {
  const { ctx, crawlDb, segmentsDir } = setup(t);
  await writeCrawlDb(ctx.storage, crawlDb, { [A]: dbDatum(S.STATUS_DB_UNFETCHED) });
  const bad = await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages: [{ url: A, outlinks: { [B]: 1 } }], incomplete: ['crawl_fetch'] });
  const good = await writeSegment(ctx.storage, segmentsDir, '20240102000000', { pages: [{ url: C }] });
  const counters = await updatedb(ctx, { crawlDb, segments: [bad, good] });
  assert.equal(counters.segments_skipped, 1);
  assert.equal(counters.segments, 1);
  assert.ok(logged(ctx).some((m) => m.includes(path.join(bad, 'crawl_fetch')) && m.includes('incomplete')), logged(ctx).join('\n'));
  const db = await readCrawlDb(ctx.storage, crawlDb);
  assert.deepEqual([...db.keys()], [A, C]);
  assert.equal(db.get(A)!.status, S.STATUS_DB_UNFETCHED, 'nothing from the skipped segment');
});

test('updatedb skips an incomplete crawl_parse with a warning but merges the fetch statuses', async (t) => {
  const { ctx, crawlDb, segmentsDir } = setup(t);
  const seg = await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages: [{ url: A, signature: SIG, outlinks: { [B]: 1 } }], incomplete: ['crawl_parse'] });
  const counters = await updatedb(ctx, { crawlDb, segments: [seg] });
  assert.equal(counters.parts_skipped, 1);
  assert.ok(logged(ctx).some((m) => m.includes(path.join(seg, 'crawl_parse'))));
  const db = await readCrawlDb(ctx.storage, crawlDb);
  assert.deepEqual([...db.keys()], [A]);
  assert.equal(db.get(A)!.status, S.STATUS_DB_FETCHED);
  assert.equal(db.get(A)!.signature, null);
});

test('updatedb of an unparsed segment (no crawl_parse) merges crawl_fetch; a missing segment is skipped', async (t) => {
  const { ctx, crawlDb, segmentsDir } = setup(t);
  const seg = await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages: [{ url: A, status: S.STATUS_FETCH_RETRY }], missing: ['crawl_parse', 'parse_data'] });
  const counters = await updatedb(ctx, { crawlDb, segments: [seg, path.join(segmentsDir, 'nope')] });
  assert.equal(counters.segments_skipped, 1);
  const db = await readCrawlDb(ctx.storage, crawlDb);
  assert.equal(db.get(A)!.status, S.STATUS_DB_UNFETCHED);
  assert.equal(db.get(A)!.retries, 1);
});

test('updatedb merges several segments in one run; the latest fetch wins', async (t) => {
  const { ctx, crawlDb, segmentsDir } = setup(t);
  const s1 = await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages: [{ url: A, status: S.STATUS_FETCH_RETRY, fetchTime: T0 + 1000 }, { url: C, outlinks: { [B]: 0.25 } }] });
  const s2 = await writeSegment(ctx.storage, segmentsDir, '20240102000000', { pages: [{ url: A, fetchTime: T0 + 5000, outlinks: { [B]: 0.5 } }] });
  await updatedb(ctx, { crawlDb, segments: [s1, s2] });
  const db = await readCrawlDb(ctx.storage, crawlDb);
  assert.equal(db.get(A)!.status, S.STATUS_DB_FETCHED);
  assert.equal(db.get(B)!.score, 0.75);
});

test('updatedb db.update.max.inlinks bounds the inlinks a URL scores from', async (t) => {
  const { ctx, crawlDb, segmentsDir } = setup(t, { 'db.update.max.inlinks': '2' });
  const pages = [0.1, 0.2, 0.3, 0.4].map((s, i) => ({ url: `http://p${i}.example/`, outlinks: { [B]: s } }));
  await updatedb(ctx, { crawlDb, segments: [await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages })] });
  assert.ok(Math.abs((await readCrawlDb(ctx.storage, crawlDb)).get(B)!.score - 0.7) < 1e-9);
});

test('updatedb refuses a locked CrawlDb, and -force breaks the lock', async (t) => {
  const { ctx, crawlDb, segmentsDir } = setup(t);
  await writeCrawlDb(ctx.storage, crawlDb, { [A]: dbDatum(S.STATUS_DB_UNFETCHED) });
  const seg = await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages: [{ url: A }] });
  const holder = await ctx.storage.openCrawlDb(crawlDb);
  const session = await holder.beginUpdate();
  await assert.rejects(updatedb(ctx, { crawlDb, segments: [seg] }), (e: { code?: string }) => e.code === 'NUTCH_STORAGE_LOCKED');
  await session.abort();
  await holder.close();
  await updatedb(ctx, { crawlDb, segments: [seg] });
  assert.equal((await readCrawlDb(ctx.storage, crawlDb)).get(A)!.status, S.STATUS_DB_FETCHED);
});

test('updatedb stopped by its signal leaves the CrawlDb unchanged', async (t) => {
  const { ctx, crawlDb, segmentsDir } = setup(t, { 'storage.batch.size': '10' });
  await writeCrawlDb(ctx.storage, crawlDb, { [A]: dbDatum(S.STATUS_DB_UNFETCHED) });
  const outlinks = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`http://n.example/${i}`, 0.01]));
  const seg = await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages: [{ url: A, outlinks }] });
  const ac = new AbortController();
  const counters = await updatedb(ctx, { crawlDb, segments: [seg] }, { signal: ac.signal, onProgress: (e) => { if (e.type === 'progress') ac.abort(); } });
  assert.equal(counters.stopped, 1);
  const db = await readCrawlDb(ctx.storage, crawlDb);
  assert.deepEqual([...db.keys()], [A]);
  assert.equal(db.get(A)!.status, S.STATUS_DB_UNFETCHED);
});

test('updatedb re-run on an unchanged CrawlDb gives the same statuses (OPIC adds the inlink cash again, as Nutch)', async (t) => {
  const { ctx, crawlDb, segmentsDir } = setup(t);
  const seg = await writeSegment(ctx.storage, segmentsDir, '20240101000000', { pages: [{ url: A, outlinks: { [B]: 0.5 } }] });
  await updatedb(ctx, { crawlDb, segments: [seg] });
  await updatedb(ctx, { crawlDb, segments: [seg] });
  const db = await readCrawlDb(ctx.storage, crawlDb);
  assert.equal(db.get(A)!.status, S.STATUS_DB_FETCHED);
  assert.equal(db.get(B)!.score, 1);
});

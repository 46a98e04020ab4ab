import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlStatus } from '../../core/model/crawl-datum.js';
import { index } from '../../core/crawl/index/index.js';
import { clean } from '../../core/crawl/clean/clean.js';
import { search } from '../../core/crawl/search/search.js';
import { logged } from '../helpers/context.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { buildCrawl, dummyWriters, indexContext, type PageSpec } from './crawl-fixture.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'fixture-index');

const S = CrawlStatus;

const pages: PageSpec[] = [
  { url: 'http://a.example/ok', title: 'Alpha page', text: 'alpha unique-phrase zebracorn', inlinks: [{ fromUrl: 'http://b.example/', anchor: 'alpha anchor' }, { fromUrl: 'http://b.example/x', anchor: 'alpha anchor' }, { fromUrl: 'http://c.example/', anchor: 'Alpha Anchor' }] },
  { url: 'http://a.example/gone', fetch: S.STATUS_FETCH_GONE, parse: null, db: S.STATUS_DB_GONE },
  { url: 'http://a.example/redir', fetch: S.STATUS_FETCH_REDIR_PERM, parse: null, db: S.STATUS_DB_REDIR_PERM },
  { url: 'http://a.example/dup', db: S.STATUS_DB_DUPLICATE, text: 'dup' },
  { url: 'http://a.example/notmod', db: S.STATUS_DB_NOTMODIFIED, text: 'notmod' },
  { url: 'http://a.example/failed', parse: 'failed' },
  { url: 'http://a.example/noindex', parseMeta: { 'robots.noindex': ['true'] }, text: 'hidden' },
  { url: 'http://a.example/retry', fetch: S.STATUS_FETCH_RETRY, parse: null },
  { url: 'http://a.example/unfetched', fetch: null, parse: null, db: S.STATUS_DB_UNFETCHED },
];

test('index: Nutch decision order with -deleteGone, noindex and not-modified skip; writers get adds and deletes', async (t) => {
  const dir = tempDir(t);
  const actions = join(dir, 'actions.txt');
  const ctx = indexContext(t, dummyWriters(actions, [{ id: 'sqlite_1', extension: 'indexer-sqlite' }]), {
    'indexer.delete.robots.noindex': 'true', 'indexer.skip.notmodified': 'true',
  });
  const f = await buildCrawl(ctx, join(dir, 'crawl'), pages);
  const counters = await index(ctx, { crawlDb: f.crawlDb, linkDb: f.linkDb, segments: [f.segment], deleteGone: true });
  assert.deepEqual(counters, {
    'indexed (add/update)': 1,
    'deleted (gone)': 1,
    'deleted (redirects)': 1,
    'deleted (duplicates)': 1,
    'skipped (not modified)': 1,
    'deleted (parse failed)': 1,
    'deleted (robots=noindex)': 1,
  });
  const lines = readFileSync(actions, 'utf8').trim().split('\n').sort();
  assert.deepEqual(lines, [
    'add\thttp://a.example/ok',
    'delete\thttp://a.example/dup',
    'delete\thttp://a.example/failed',
    'delete\thttp://a.example/gone',
    'delete\thttp://a.example/noindex',
    'delete\thttp://a.example/redir',
  ]);
  const hits = await search(ctx, { crawlDir: f.crawlDir, query: 'zebracorn', limit: 5 });
  assert.equal(hits.length, 1);
  assert.equal(hits[0]!.url, 'http://a.example/ok');
  assert.equal(hits[0]!.title, 'Alpha page');
  assert.match(hits[0]!.snippet, /<b>zebracorn<\/b>/);
  const byAnchor = await search(ctx, { crawlDir: f.crawlDir, query: '"alpha anchor"', limit: 5 });
  assert.equal(byAnchor[0]?.url, 'http://a.example/ok', 'anchors from the LinkDb are in the document');
});

test('index without -deleteGone: gone, redirect, duplicate and failed pages are skipped, not deleted', async (t) => {
  const dir = tempDir(t);
  const actions = join(dir, 'actions.txt');
  const ctx = indexContext(t, dummyWriters(actions));
  const f = await buildCrawl(ctx, join(dir, 'crawl'), pages);
  const counters = await index(ctx, { crawlDb: f.crawlDb, linkDb: f.linkDb, segments: [f.segment] });
  assert.equal(counters['indexed (add/update)'], 4, 'ok, dup, notmod and noindex are indexed by default');
  assert.equal(counters['skipped (unsuccessful)'], 1, 'failed parse');
  assert.ok(!readFileSync(actions, 'utf8').includes('delete'));
});

test('index: the document carries id, segment, digest, boost and the index-basic/anchor fields', async (t) => {
  const dir = tempDir(t);
  const out = join(dir, 'docs.jsonl');
  const ctx = indexContext(t, { writers: [{ id: 'jsonl_1', extension: 'indexer-jsonl', parameters: { path: out } }] }, { 'anchorIndexingFilter.deduplicate': 'true' });
  const f = await buildCrawl(ctx, join(dir, 'crawl'), pages.slice(0, 1));
  await index(ctx, { crawlDb: f.crawlDb, linkDb: f.linkDb, segments: [f.segment] });
  const [line] = readFileSync(out, 'utf8').trim().split('\n');
  const rec = JSON.parse(line!);
  assert.equal(rec.action, 'add');
  assert.equal(rec.id, 'http://a.example/ok');
  assert.deepEqual(rec.fields.segment, ['20260102030405']);
  assert.deepEqual(rec.fields.digest, ['abc123']);
  assert.deepEqual(rec.fields.boost, ['1']);
  assert.deepEqual(rec.fields.host, ['a.example']);
  assert.deepEqual(rec.fields.url, ['http://a.example/ok']);
  assert.deepEqual(rec.fields.title, ['Alpha page']);
  assert.deepEqual(rec.fields.anchor, ['alpha anchor'], 'one per domain, case-insensitive dedup');
  assert.equal(typeof rec.fields.tstamp[0], 'string');
});

test('index skips an incomplete segment with a warning naming the part, and indexes the complete one', async (t) => {
  const dir = tempDir(t);
  const actions = join(dir, 'actions.txt');
  const ctx = indexContext(t, dummyWriters(actions));
  const bad = await buildCrawl(ctx, join(dir, 'crawl1'), pages.slice(0, 1), { unfinished: ['parse_text'] });
  const good = await buildCrawl(ctx, join(dir, 'crawl2'), pages.slice(0, 1));
  const counters = await index(ctx, { crawlDb: good.crawlDb, segments: [bad.segment, good.segment] });
  assert.equal(counters['skipped (incomplete segment)'], 1);
  assert.equal(counters['indexed (add/update)'], 1);
  assert.ok(logged(ctx).some((m) => m.includes(join(bad.segment, 'parse_text'))), logged(ctx).join('\n'));
});

test('index -addBinaryContent adds binaryContent (Base64 with indexer.binarycontent.as.base64)', async (t) => {
  const dir = tempDir(t);
  const out = join(dir, 'docs.jsonl');
  const ctx = indexContext(t, { writers: [{ id: 'j', extension: 'indexer-jsonl', parameters: { path: out } }] }, { 'indexer.binarycontent.as.base64': 'true' });
  const f = await buildCrawl(ctx, join(dir, 'crawl'), [{ url: 'http://bin.example/', text: 'hi' }]);
  await index(ctx, { crawlDb: f.crawlDb, segments: [f.segment], addBinaryContent: true });
  const rec = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(Buffer.from(rec.fields.binaryContent[0], 'base64').toString(), '<html>hi</html>');
});

test('index -filter drops URLs the URL filters reject', async (t) => {
  const dir = tempDir(t);
  const actions = join(dir, 'actions.txt');
  const ctx = indexContext(t, dummyWriters(actions), { 'urlfilter.order': 'fixture-index:reject-ok', 'indexingfilter.order': 'index-basic' }, [FIXTURES]);
  const f = await buildCrawl(ctx, join(dir, 'crawl'), [pages[0]!, { url: 'http://b.example/kept', text: 'x' }]);
  const counters = await index(ctx, { crawlDb: f.crawlDb, segments: [f.segment], filter: true });
  assert.equal(counters['skipped (filtered)'], 1);
  assert.equal(readFileSync(actions, 'utf8'), 'add\thttp://b.example/kept\n');
});

test('index: an IndexingFilter that throws is counted and logged; one that drops skips (or deletes with indexer.delete.skipped.by.indexingfilter)', async (t) => {
  const dir = tempDir(t);
  const actions = join(dir, 'actions.txt');
  const order = { 'indexingfilter.order': 'index-basic fixture-index:throwing-filter fixture-index:drop-filter' };
  const ctx = indexContext(t, dummyWriters(actions), order, [FIXTURES]);
  const f = await buildCrawl(ctx, join(dir, 'crawl'), [{ url: 'http://x.example/throw' }, { url: 'http://x.example/drop' }, { url: 'http://x.example/keep' }]);
  const counters = await index(ctx, { crawlDb: f.crawlDb, segments: [f.segment] });
  assert.deepEqual(counters, { 'errors (IndexingFilter)': 1, 'skipped (IndexingFilter)': 1, 'indexed (add/update)': 1 });
  assert.ok(logged(ctx).some((m) => m.includes('http://x.example/throw') && m.includes('filter exploded')));
  const ctx2 = indexContext(t, dummyWriters(actions), { ...order, 'indexer.delete.skipped.by.indexingfilter': 'true' }, [FIXTURES]);
  const counters2 = await index(ctx2, { crawlDb: f.crawlDb, segments: [f.segment] });
  assert.equal(counters2['deleted (IndexingFilter)'], 1);
  assert.ok(readFileSync(actions, 'utf8').includes('delete\thttp://x.example/drop'));
});

test('index: a writer that fails mid-run is retried, then the stage fails naming the writer and rolls back the embedded index', async (t) => {
  const dir = tempDir(t);
  const crawlDir = join(dir, 'crawl');
  // A first, successful run leaves one page in the embedded index.
  const ok = indexContext(t, { writers: [{ id: 'sqlite_1', extension: 'indexer-sqlite' }] });
  const first = await buildCrawl(ok, crawlDir, [{ url: 'http://old.example/', text: 'oldpage' }]);
  await index(ok, { crawlDb: first.crawlDb, segments: [first.segment] });
  const ctx = indexContext(t, { writers: [{ id: 'sqlite_1', extension: 'indexer-sqlite' }, { id: 'flaky_1', extension: 'fixture-index:failing-writer', parameters: { failAt: '3' } }] }, {}, [FIXTURES]);
  const seg2 = await buildCrawl(ctx, join(dir, 'crawl-b'), Array.from({ length: 5 }, (_, i) => ({ url: `http://new.example/${i}`, text: 'newpage' })));
  await assert.rejects(index(ctx, { crawlDb: first.crawlDb, segments: [seg2.segment] }), (e: { code: string; message: string; details: Record<string, unknown> }) => {
    assert.equal(e.code, 'NUTCH_INDEX_WRITER_FAILED');
    assert.match(e.message, /flaky_1/);
    assert.match(e.message, /http:\/\/new\.example\/2/);
    assert.match(e.message, /disk full/);
    assert.match(e.message, /3 document\(s\) of this run were not written/);
    return true;
  });
  assert.equal(logged(ctx).filter((m) => /attempt \d of 3/.test(m)).length, 2, 'retried twice');
  assert.deepEqual((await search(ok, { crawlDir, query: 'newpage', limit: 10 })), [], 'nothing of the failed run was committed');
  assert.equal((await search(ok, { crawlDir, query: 'oldpage', limit: 10 })).length, 1, 'the previous index is intact');
});

test('clean sends deletes for gone and duplicate pages of the CrawlDb', async (t) => {
  const dir = tempDir(t);
  const actions = join(dir, 'actions.txt');
  const ctx = indexContext(t, dummyWriters(actions));
  const f = await buildCrawl(ctx, join(dir, 'crawl'), pages);
  const counters = await clean(ctx, { crawlDb: f.crawlDb });
  assert.equal(counters['Deleted documents'], 2);
  assert.deepEqual(readFileSync(actions, 'utf8').trim().split('\n').sort(), ['delete\thttp://a.example/dup', 'delete\thttp://a.example/gone']);
});

test('index then clean on the embedded index: the duplicate disappears from search', async (t) => {
  const dir = tempDir(t);
  const ctx = indexContext(t, { writers: [{ id: 's', extension: 'indexer-sqlite' }] });
  const f = await buildCrawl(ctx, join(dir, 'crawl'), [{ url: 'http://d.example/1', text: 'twinword', db: S.STATUS_DB_FETCHED }, { url: 'http://d.example/2', text: 'twinword' }]);
  await index(ctx, { crawlDb: f.crawlDb, segments: [f.segment] });
  assert.equal((await search(ctx, { crawlDir: f.crawlDir, query: 'twinword', limit: 10 })).length, 2);
  const db = await ctx.storage.openCrawlDb(f.crawlDb);
  const up = await db.beginUpdate();
  const d = (await up.get('http://d.example/2'))!;
  await up.put([{ url: 'http://d.example/2', value: { ...d, status: S.STATUS_DB_DUPLICATE } }]);
  await up.commit();
  await db.close();
  await clean(ctx, { crawlDb: f.crawlDb });
  assert.deepEqual((await search(ctx, { crawlDir: f.crawlDir, query: 'twinword', limit: 10 })).map((h) => h.url), ['http://d.example/1']);
});

test('index: an abort (first SIGINT) stops after the current batch and commits what was indexed', async (t) => {
  const dir = tempDir(t);
  const ctx = indexContext(t, { writers: [{ id: 's', extension: 'indexer-sqlite' }] }, { 'storage.batch.size': '2' });
  const f = await buildCrawl(ctx, join(dir, 'crawl'), Array.from({ length: 6 }, (_, i) => ({ url: `http://stop.example/${i}`, text: 'stopword' })));
  const ac = new AbortController();
  const events: string[] = [];
  const counters = await index(ctx, { crawlDb: f.crawlDb, segments: [f.segment] }, {
    signal: ac.signal,
    onProgress: (e) => {
      events.push(e.type);
      if (e.type === 'progress') ac.abort();
    },
  });
  assert.equal(counters['indexed (add/update)'], 2);
  assert.deepEqual(events, ['stage-start', 'progress', 'stage-end']);
  assert.equal((await search(ctx, { crawlDir: f.crawlDir, query: 'stopword', limit: 10 })).length, 2);
});

test('search opens only the first writer that can search; with none, the embedded index, else NUTCH_INDEX_NO_SEARCHER', async (t) => {
  const dir = tempDir(t);
  const actions = join(dir, 'actions.txt');
  const ctx = indexContext(t, dummyWriters(actions, [{ id: 'sqlite_1', extension: 'indexer-sqlite' }]));
  const f = await buildCrawl(ctx, join(dir, 'crawl'), [{ url: 'http://s.example/', text: 'searchword' }]);
  await index(ctx, { crawlDb: f.crawlDb, segments: [f.segment] });
  assert.equal((await search(ctx, { crawlDir: f.crawlDir, query: 'searchword', limit: 3 })).length, 1);
  assert.equal(readFileSync(actions, 'utf8'), 'add\thttp://s.example/\n', 'the dummy writer was not reopened (its file is intact)');
  const none = indexContext(t, dummyWriters(join(dir, 'other.txt')));
  assert.equal((await search(none, { crawlDir: f.crawlDir, query: 'searchword', limit: 3 })).length, 1, 'search needs only the index');
  await assert.rejects(search(none, { crawlDir: join(dir, 'empty'), query: 'x', limit: 1 }), (e: { code: string }) => e.code === 'NUTCH_INDEX_NO_SEARCHER');
});

test('index: a URL in several segments is upserted; the later segment wins', async (t) => {
  const dir = tempDir(t);
  const ctx = indexContext(t, { writers: [{ id: 's', extension: 'indexer-sqlite' }] });
  const crawlDir = join(dir, 'crawl');
  const older = await buildCrawl(ctx, crawlDir, [{ url: 'http://twice.example/', title: 'Old', text: 'versionone' }], { segmentName: '20260101000000' });
  const newer = await buildCrawl(ctx, crawlDir, [{ url: 'http://twice.example/', title: 'New', text: 'versiontwo' }], { segmentName: '20260102000000' });
  const counters = await index(ctx, { crawlDb: newer.crawlDb, segments: [older.segment, newer.segment] });
  assert.equal(counters['indexed (add/update)'], 2);
  assert.deepEqual(await search(ctx, { crawlDir, query: 'versionone', limit: 5 }), []);
  const hits = await search(ctx, { crawlDir, query: 'versiontwo', limit: 5 });
  assert.deepEqual(hits.map((h) => [h.url, h.title]), [['http://twice.example/', 'New']]);
});

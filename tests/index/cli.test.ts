import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runNutch } from '../helpers/cli.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { CrawlStatus } from '../../core/model/crawl-datum.js';
import { buildCrawl, indexContext, INDEX_PLUGINS } from './crawl-fixture.js';

const D = ['-D', `plugin.includes=${INDEX_PLUGINS}`];

async function crawl(t: { after(fn: () => unknown): void }) {
  const ctx = indexContext(t, { writers: [{ id: 'indexer_sqlite_1', extension: 'indexer-sqlite' }] });
  const f = await buildCrawl(ctx, join(ctx.confDir, 'crawl'), [
    { url: 'http://cli.example/one', title: 'First page', text: 'the quick brown fox jumps', inlinks: [{ fromUrl: 'http://other.example/', anchor: 'fox page' }] },
    { url: 'http://cli.example/two', title: 'Second page', text: 'a lazy dog sleeps; the fox is elsewhere' },
    { url: 'http://cli.example/gone', db: CrawlStatus.STATUS_DB_GONE, fetch: CrawlStatus.STATUS_FETCH_GONE, parse: null },
  ]);
  return { cwd: ctx.confDir, ...f };
}

test('nutch index <crawldb> -linkdb <linkdb> -dir <segments> -deleteGone, then nutch search finds ranked hits', async (t) => {
  const c = await crawl(t);
  const r = await runNutch(['index', ...D, 'crawl/crawldb', '-linkdb', 'crawl/linkdb', '-dir', 'crawl/segments', '-deleteGone'], { cwd: c.cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Indexer: number of documents indexed, deleted, or skipped:/);
  assert.match(r.stdout, /Indexer: {6}2 {2}indexed \(add\/update\)/);
  assert.match(r.stdout, /Indexer: {6}1 {2}deleted \(gone\)/);

  const s = await runNutch(['search', ...D, 'crawl', 'fox', '-n', '5'], { cwd: c.cwd });
  assert.equal(s.code, 0, s.stderr);
  const lines = s.stdout.split('\n');
  assert.equal(lines[0], '2 hit(s) for "fox"');
  assert.equal(lines[1], '1. First page');
  assert.equal(lines[2], '   http://cli.example/one');
  // Off a terminal the highlight markers are dropped (bold on a TTY: tests/cli/search-format.test.ts).
  assert.match(lines[3]!, /\bfox\b/);
  assert.doesNotMatch(lines[3]!, /<b>|\x1b\[/);
  assert.match(lines[4]!, /^ {3}score=(\d+(\.\d{1,3})?|\d\.\d\de-\d+)$/);

  const j = await runNutch(['search', ...D, 'crawl', '"lazy dog"', '-json'], { cwd: c.cwd });
  const hits = j.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(hits.map((h) => [h.url, h.title]), [['http://cli.example/two', 'Second page']]);
  assert.deepEqual(Object.keys(hits[0]).sort(), ['score', 'snippet', 'title', 'url']);

  const weird = await runNutch(['search', ...D, 'crawl', '(fox AND "dog'], { cwd: c.cwd });
  assert.equal(weird.code, 0, weird.stderr);
});

test('nutch clean <crawldb> deletes gone pages; usage errors exit 2; search without an index exits 3 naming the path', async (t) => {
  const c = await crawl(t);
  assert.equal((await runNutch(['index', ...D, 'crawl/crawldb', c.segment], { cwd: c.cwd })).code, 0);
  const r = await runNutch(['clean', ...D, 'crawl/crawldb'], { cwd: c.cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'CleaningJob: deleted a total of 1 documents\n');
  assert.equal((await runNutch(['index', ...D, 'crawl/crawldb'], { cwd: c.cwd })).code, 2);
  assert.equal((await runNutch(['search', ...D, 'crawl'], { cwd: c.cwd })).code, 2);
  assert.equal((await runNutch(['search', ...D, 'crawl', 'x', '-n', '0'], { cwd: c.cwd })).code, 2);
  const missing = await runNutch(['search', ...D, 'nowhere', 'x'], { cwd: c.cwd });
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /NUTCH_INDEX_NOT_FOUND: No index at .*nowhere\/index\/index\.sqlite/);
});

test('nutch index with a broken index-writers.json exits 2 naming file and pointer', async (t) => {
  const c = await crawl(t);
  writeFile(join(c.cwd, 'index-writers.json'), { writers: [{ id: 'x', extension: 'indexer-nope' }] });
  const r = await runNutch(['index', ...D, 'crawl/crawldb', c.segment], { cwd: c.cwd });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /NUTCH_INDEX_WRITERS_INVALID: .*index-writers\.json: \/writers\/0\/extension "indexer-nope"/);
});

test('nutch index and clean on a CrawlDb that does not exist exit 3 naming it', async (t) => {
  const c = await crawl(t);
  const r = await runNutch(['index', ...D, 'nowhere/crawldb', c.segment], { cwd: c.cwd });
  assert.equal(r.code, 3);
  assert.match(r.stderr, /NUTCH_STORAGE_NOT_FOUND: CrawlDb .*nowhere\/crawldb does not exist/);
  const cl = await runNutch(['clean', ...D, 'nowhere/crawldb'], { cwd: c.cwd });
  assert.equal(cl.code, 3);
});

/** `nutch updatedb` from the command line. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { CrawlStatus as S } from '../../core/model/crawl-datum.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runNutch } from '../helpers/cli.js';
import { dbDatum, readCrawlDb, writeCrawlDb, writeSegment } from './segment-fixtures.js';

test('CLI: nutch updatedb <crawldb> -dir <segments> merges every segment; -noAdditions; usage errors exit 2', async (t) => {
  const dir = tempDir(t);
  const ctx = fixtureContext(t, { includeBuiltins: true, cwd: dir, env: { NUTCH_CONF_DIR: dir } });
  const crawlDb = path.join(dir, 'crawl', 'crawldb');
  await writeCrawlDb(ctx.storage, crawlDb, { 'http://a.example/': dbDatum(S.STATUS_DB_UNFETCHED), 'http://b.example/': dbDatum(S.STATUS_DB_UNFETCHED) });
  await writeSegment(ctx.storage, path.join(dir, 'crawl', 'segments'), '20240101000000', { pages: [{ url: 'http://a.example/', outlinks: { 'http://new.example/': 1 } }] });
  await writeSegment(ctx.storage, path.join(dir, 'crawl', 'segments'), '20240102000000', { pages: [{ url: 'http://b.example/', status: S.STATUS_FETCH_GONE }] });

  const r = await runNutch(['updatedb', 'crawl/crawldb', '-dir', 'crawl/segments', '-noAdditions'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /db_fetched=1/);
  assert.match(r.stdout, /db_gone=1/);
  let db = await readCrawlDb(ctx.storage, crawlDb);
  assert.deepEqual([...db.keys()], ['http://a.example/', 'http://b.example/'], '-noAdditions: no new URL');

  const again = await runNutch(['updatedb', 'crawl/crawldb', 'crawl/segments/20240101000000', '-D', 'db.update.purge.404=true'], { cwd: dir });
  assert.equal(again.code, 0, again.stderr);
  db = await readCrawlDb(ctx.storage, crawlDb);
  assert.deepEqual([...db.keys()], ['http://a.example/', 'http://new.example/'], 'segment named positionally; gone page purged');

  const noSeg = await runNutch(['updatedb', 'crawl/crawldb'], { cwd: dir });
  assert.equal(noSeg.code, 2);
  assert.match(noSeg.stderr, /No segments given/);
  const bad = await runNutch(['updatedb', 'crawl/crawldb', '-bogus', 'x'], { cwd: dir });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Unknown option -bogus/);
});

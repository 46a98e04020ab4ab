/**
 * updatehostdb's semantics on a hand-made CrawlDb (on the test run's engine: SQLite, or PostgreSQL with
 * NUTCH_TEST_STORAGE=postgres): counts per status, connection failures, home pages (redirects too),
 * statistics with known values, malformed URLs, counts rebuilt (not added) by a later update, and
 * readhostdb's line layout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { createCrawlDatum, CrawlStatus, DatumMeta, type CrawlDatum } from '../../core/model/crawl-datum.js';
import { updateHostDb } from '../../core/crawl/hostdb/update-hostdb.js';
import { readHostDb } from '../../core/crawl/hostdb/read-hostdb.js';

const S = CrawlStatus;
const fetched = (score: number, rs: string, type: string): CrawlDatum =>
  createCrawlDatum({ status: S.STATUS_DB_FETCHED, score, metaData: { _rs_: [rs], 'Content-Type': [type] } });

test('updatehostdb counts, home pages and statistics per host; a later update rebuilds the counts from the CrawlDb', async (t) => {
  const cwd = tempDir(t);
  const ctx = fixtureContext(t, { cwd, config: { 'hostdb.numeric.fields': ['_rs_', 'score'], 'hostdb.percentiles': ['50', '95'] } });
  const crawlDbPath = join(cwd, 'crawl', 'crawldb');
  const hostDbPath = join(cwd, 'crawl', 'hostdb');
  const crawlDb = await ctx.storage.openCrawlDb(crawlDbPath);
  const up = await crawlDb.beginUpdate();
  await up.put([
    { url: 'http://a.example/', value: fetched(1, '100', 'text/html') },
    { url: 'http://a.example/x', value: fetched(3, '300', 'text/html') },
    { url: 'http://a.example/y', value: { ...fetched(2, '200', 'application/pdf'), status: S.STATUS_DB_NOTMODIFIED } },
    { url: 'http://a.example/z', value: createCrawlDatum({ status: S.STATUS_DB_UNFETCHED, retries: 2, score: 50 }) },
    { url: 'https://a.example:8443/q', value: createCrawlDatum({ status: S.STATUS_DB_GONE }) },
    { url: 'http://b.example/', value: createCrawlDatum({ status: S.STATUS_DB_REDIR_PERM, metaData: { [DatumMeta.PROTO_STATUS_KEY]: ['moved(12), lastModified=0: http://www.b.example/home'] } }) },
    { url: 'http://b.example/r', value: createCrawlDatum({ status: S.STATUS_DB_REDIR_TEMP }) },
    { url: 'http://B.EXAMPLE:81/s', value: createCrawlDatum({ status: S.STATUS_DB_UNFETCHED }) },
    { url: 'nonsense', value: createCrawlDatum({ status: S.STATUS_DB_UNFETCHED }) },
  ]);
  await up.commit();
  await crawlDb.close();

  const counters = await updateHostDb(ctx, { hostDb: hostDbPath, crawlDb: crawlDbPath });
  assert.equal(counters.total_hosts, 2);
  assert.equal(counters.malformed_url, 1);

  const hostDb = await ctx.storage.openHostDb(hostDbPath);
  const a = (await hostDb.get('a.example'))!;
  const b = (await hostDb.get('b.example'))!;
  assert.deepEqual([a.unfetched, a.fetched, a.notModified, a.gone, a.redirTemp, a.redirPerm, a.connectionFailures], [1, 2, 1, 1, 0, 0, 1]);
  assert.equal(a.homepageUrl, 'http://a.example/');
  assert.deepEqual(a.metaData, {
    'min._rs_': 100, 'max._rs_': 300, 'avg._rs_': 200, 'pct50._rs_': 200, 'pct95._rs_': 300,
    'min.score': 1, 'max.score': 3, 'avg.score': 2, 'pct50.score': 2, 'pct95.score': 3,
    'Content-Type.text/html': 2, 'Content-Type.application/pdf': 1,
  }, 'statistics over the fetched and not-modified records only');
  assert.deepEqual([b.unfetched, b.redirTemp, b.redirPerm, b.fetched], [1, 1, 1, 0]);
  assert.equal(b.homepageUrl, 'http://www.b.example/home', 'a redirecting root gives its target');
  assert.deepEqual(b.metaData, {});
  await hostDb.close();

  const out = join(cwd, 'dump');
  await readHostDb(ctx, { hostDb: hostDbPath, output: out });
  const [lineA, lineB] = readFileSync(join(out, 'part-00000'), 'utf8').trimEnd().split('\n');
  assert.deepEqual(lineA!.split('\t').slice(0, 12), ['a.example', '1', '2', '1', '0', '0', '1', '5', '0', '1', '1', '0.0']);
  assert.match(lineA!, /\thttp:\/\/a\.example\/\t.*avg\._rs_:200\.0\|\|\|/);
  assert.ok(lineB!.startsWith('b.example\t1\t0\t0\t1\t1\t0\t3\t0\t0\t0\t0.0\t'));

  // the CrawlDb changes; the next update counts it anew instead of adding to the old counts
  const crawlDb2 = await ctx.storage.openCrawlDb(crawlDbPath);
  const up2 = await crawlDb2.beginUpdate();
  await up2.delete(['http://a.example/x', 'https://a.example:8443/q']);
  await up2.commit();
  await crawlDb2.close();
  await updateHostDb(ctx, { hostDb: hostDbPath, crawlDb: crawlDbPath });
  const hostDb2 = await ctx.storage.openHostDb(hostDbPath);
  const a2 = (await hostDb2.get('a.example'))!;
  assert.deepEqual([a2.unfetched, a2.fetched, a2.notModified, a2.gone, a2.connectionFailures], [1, 1, 1, 0, 1]);
  assert.equal(a2.metaData['max._rs_'], 200);
  assert.equal(a2.metaData['Content-Type.text/html'], 1);
  await hostDb2.close();
});

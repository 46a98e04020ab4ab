/** scoring-orphan: the cases of Nutch's TestOrphanScoringFilter, then `nutch updatedb` on a real CrawlDb and segment. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlStatus, createCrawlDatum, type ScoringFilter } from '../../sdk/plugin.js';
import { fixtureContext } from '../../tests/helpers/context.js';
import { runNutch } from '../../tests/helpers/cli.js';
import { writeFile } from '../../tests/helpers/temp-dir.js';
import { dbDatum, readCrawlDb, writeCrawlDb, writeSegment } from '../../tests/updatedb/segment-fixtures.js';
import { OrphanScoringFilter } from './index.js';

const DAY = 24 * 3600;

function filterAt(t: TestContext, now: number, defines: Record<string, string> = {}) {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'scoring-orphan', ...defines } });
  const ext = ctx.plugins.findExtension('ScoringFilter', 'org.apache.nutch.scoring.orphan.OrphanScoringFilter');
  assert.equal(ext?.id, 'scoring-orphan');
  return { ctx, filter: new OrphanScoringFilter({ conf: ctx.conf, log: ctx.log, plugin: { id: 'scoring-orphan' }, parameters: {} } as never, () => now) };
}

const datum = (stamp?: number) => createCrawlDatum({ status: CrawlStatus.STATUS_DB_FETCHED, metaData: stamp === undefined ? {} : { _orphan_: [String(stamp)] } });

test('scoring-orphan: an inlink stamps the time; without one, gone after 30 days and orphan after 40 (defaults)', (t) => {
  const now = 1_800_000_000;
  const { filter } = filterAt(t, now);
  const linked = datum();
  filter.updateDbScore('http://a/', null, linked, [createCrawlDatum({ status: CrawlStatus.STATUS_LINKED })]);
  assert.deepEqual(linked.metaData._orphan_, [String(now)]);
  const cases: [string, number | undefined, number][] = [
    ['never linked (a seed): untouched', undefined, CrawlStatus.STATUS_DB_FETCHED],
    ['linked a day ago', now - DAY, CrawlStatus.STATUS_DB_FETCHED],
    ['exactly 30 days: not yet', now - 30 * DAY, CrawlStatus.STATUS_DB_FETCHED],
    ['31 days: gone', now - 31 * DAY, CrawlStatus.STATUS_DB_GONE],
    ['41 days: orphan', now - 41 * DAY, CrawlStatus.STATUS_DB_ORPHAN],
  ];
  for (const [name, stamp, status] of cases) {
    for (const call of ['updateDbScore', 'orphanedScore'] as const) {
      const d = datum(stamp);
      if (call === 'updateDbScore') filter.updateDbScore('http://a/', null, d, []);
      else filter.orphanedScore('http://a/', d);
      assert.equal(d.status, status, `${name} (${call})`);
    }
  }
});

test('scoring-orphan: the thresholds are properties; gone.after > orphan.after warns; a bad stamp is left alone', (t) => {
  const now = 1_800_000_000;
  const { filter } = filterAt(t, now, { 'scoring.orphan.mark.gone.after': '10', 'scoring.orphan.mark.orphan.after': '20' });
  const d = datum(now - 15);
  filter.orphanedScore('http://a/', d);
  assert.equal(d.status, CrawlStatus.STATUS_DB_GONE);
  const { ctx, filter: odd } = filterAt(t, now, { 'scoring.orphan.mark.gone.after': '50', 'scoring.orphan.mark.orphan.after': '20' });
  assert.ok(ctx.log.records.some((r) => r.level === 'warn' && /never marked db_gone/.test(r.msg)));
  const bad = createCrawlDatum({ status: CrawlStatus.STATUS_DB_FETCHED, metaData: { _orphan_: ['soon'] } });
  odd.orphanedScore('http://a/', bad);
  assert.equal(bad.status, CrawlStatus.STATUS_DB_FETCHED);
});

test('scoring-orphan through nutch updatedb: linked pages stamped, stale ones gone or orphan, orphans purged next time', async (t) => {
  const ctx = fixtureContext(t, { includeBuiltins: true });
  const cwd = ctx.conf.confDirs[0]!;
  writeFile(join(cwd, 'nutch-site.json'), { 'http.agent.name': 'orphan-test', 'plugin.includes.add': ['scoring-orphan'], 'db.update.purge.orphans': true });
  const now = Math.floor(Date.now() / 1000);
  const crawlDb = join(cwd, 'crawl', 'crawldb');
  const stamped = (days: number) => dbDatum(CrawlStatus.STATUS_DB_FETCHED, { metaData: { _orphan_: [String(now - days * DAY)] } });
  await writeCrawlDb(ctx.storage, crawlDb, {
    'http://h.example/': dbDatum(CrawlStatus.STATUS_DB_FETCHED),
    'http://h.example/linked': stamped(100),
    'http://h.example/recent': stamped(2),
    'http://h.example/stale': stamped(35),
    'http://h.example/ancient': stamped(45),
  });
  const segment = await writeSegment(ctx.storage, join(cwd, 'crawl', 'segments'), '20260101000000', { pages: [{ url: 'http://h.example/', outlinks: { 'http://h.example/linked': 1 } }] });
  const r = await runNutch(['updatedb', 'crawl/crawldb', segment], { cwd });
  assert.equal(r.code, 0, r.stderr);
  const db = await readCrawlDb(ctx.storage, crawlDb);
  const status = (path: string) => db.get(`http://h.example/${path}`)?.status;
  assert.equal(status('linked'), CrawlStatus.STATUS_DB_FETCHED);
  assert.ok(Number(db.get('http://h.example/linked')!.metaData._orphan_![0]) >= now, 'restamped');
  assert.equal(status(''), CrawlStatus.STATUS_DB_FETCHED, 'the seed was never linked');
  assert.equal(status('recent'), CrawlStatus.STATUS_DB_FETCHED);
  assert.equal(status('stale'), CrawlStatus.STATUS_DB_GONE);
  assert.equal(status('ancient'), CrawlStatus.STATUS_DB_ORPHAN);

  const again = await runNutch(['updatedb', 'crawl/crawldb', segment], { cwd });
  assert.equal(again.code, 0, again.stderr);
  const after = await readCrawlDb(ctx.storage, crawlDb);
  assert.equal(after.has('http://h.example/ancient'), false, 'db.update.purge.orphans removed it');
  assert.equal(after.get('http://h.example/stale')?.status, CrawlStatus.STATUS_DB_GONE);
});

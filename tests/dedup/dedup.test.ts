/** dedup (DeduplicationJob) over a real CrawlDb: the compare order, groups, statuses considered. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { CrawlStatus as S, statusName } from '../../core/model/crawl-datum.js';
import { dedup } from '../../core/crawl/dedup/dedup.js';
import { getDuplicate, type CompareCriterion } from '../../core/crawl/dedup/duplicate-order.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runNutch } from '../helpers/cli.js';
import { dbDatum, readCrawlDb, writeCrawlDb, T0 } from '../updatedb/segment-fixtures.js';

const SIG1 = new Uint8Array([1, 1]);
const SIG2 = new Uint8Array([2, 2]);

function setup(t: TestContext) {
  const dir = tempDir(t);
  return { dir, ctx: fixtureContext(t, { includeBuiltins: true }), crawlDb: path.join(dir, 'crawldb') };
}

async function statuses(ctx: ReturnType<typeof setup>['ctx'], crawlDb: string): Promise<Record<string, string>> {
  return Object.fromEntries([...(await readCrawlDb(ctx.storage, crawlDb))].map(([u, d]) => [u, statusName(d.status)]));
}

const orderCases: { name: string; order: CompareCriterion[]; a: [string, number, number]; b: [string, number, number]; duplicate: 'a' | 'b' | null }[] = [
  { name: 'lower score is the duplicate', order: ['score', 'fetchTime', 'urlLength'], a: ['http://x/1', 2, 0], b: ['http://x/2', 1, 0], duplicate: 'b' },
  { name: 'same score: the older fetch is the duplicate', order: ['score', 'fetchTime', 'urlLength'], a: ['http://x/1', 1, 5], b: ['http://x/2', 1, 9], duplicate: 'a' },
  { name: 'same score and time: the longer URL is the duplicate', order: ['score', 'fetchTime', 'urlLength'], a: ['http://x/long', 1, 5], b: ['http://x/s', 1, 5], duplicate: 'a' },
  { name: 'URL length counts decoded characters', order: ['urlLength'], a: ['http://x/%41%42', 1, 5], b: ['http://x/abcd', 1, 5], duplicate: 'b' },
  { name: 'httpsOverHttp keeps https', order: ['httpsOverHttp'], a: ['http://x/p', 1, 5], b: ['https://x/p', 1, 5], duplicate: 'a' },
  { name: 'httpsOverHttp undecided for different URLs', order: ['httpsOverHttp'], a: ['http://x/p', 1, 5], b: ['https://x/q', 1, 5], duplicate: null },
  { name: 'no criterion decides: nothing marked (as Nutch)', order: ['score', 'fetchTime', 'urlLength'], a: ['http://x/a', 1, 5], b: ['http://x/b', 1, 5], duplicate: null },
  { name: 'order fetchTime first beats score', order: ['fetchTime', 'score'], a: ['http://x/a', 9, 1], b: ['http://x/b', 1, 2], duplicate: 'a' },
];
for (const c of orderCases) {
  test(`dedup compare order: ${c.name}`, () => {
    const a = { url: c.a[0], score: c.a[1], fetchTime: c.a[2] };
    const b = { url: c.b[0], score: c.b[1], fetchTime: c.b[2] };
    const dup = getDuplicate(a, b, c.order);
    assert.equal(dup === null ? null : dup === a ? 'a' : 'b', c.duplicate);
  });
}

test('dedup marks all but the best page of a signature db_duplicate; other statuses and signatures untouched', async (t) => {
  const { ctx, crawlDb } = setup(t);
  await writeCrawlDb(ctx.storage, crawlDb, {
    'http://a.example/1': dbDatum(S.STATUS_DB_FETCHED, { signature: SIG1, score: 3 }),
    'http://b.example/1': dbDatum(S.STATUS_DB_FETCHED, { signature: SIG1, score: 1 }),
    'http://c.example/1': dbDatum(S.STATUS_DB_NOTMODIFIED, { signature: SIG1, score: 2 }),
    'http://d.example/1': dbDatum(S.STATUS_DB_GONE, { signature: SIG1, score: 9 }),
    'http://e.example/1': dbDatum(S.STATUS_DB_FETCHED, { signature: SIG2 }),
    'http://f.example/1': dbDatum(S.STATUS_DB_FETCHED, { signature: null }),
  });
  const counters = await dedup(ctx, { crawlDb });
  assert.equal(counters.documents_marked_as_duplicate, 2);
  assert.deepEqual(await statuses(ctx, crawlDb), {
    'http://a.example/1': 'db_fetched', 'http://b.example/1': 'db_duplicate', 'http://c.example/1': 'db_duplicate',
    'http://d.example/1': 'db_gone', 'http://e.example/1': 'db_fetched', 'http://f.example/1': 'db_fetched',
  });
  const db = await readCrawlDb(ctx.storage, crawlDb);
  assert.equal(db.get('http://b.example/1')!.score, 1, 'only the status changes');
  assert.equal(db.get('http://b.example/1')!.fetchTime, T0);
  // Re-running changes nothing more (duplicates are no longer candidates).
  assert.equal((await dedup(ctx, { crawlDb })).documents_marked_as_duplicate, 0);
});

test('dedup -group host / domain only compares pages of the same host / domain', async (t) => {
  const entries = {
    'http://www.a.example/x': dbDatum(S.STATUS_DB_FETCHED, { signature: SIG1, score: 2 }),
    'http://www.a.example/y': dbDatum(S.STATUS_DB_FETCHED, { signature: SIG1, score: 1 }),
    'http://blog.a.example/z': dbDatum(S.STATUS_DB_FETCHED, { signature: SIG1, score: 1 }),
    'http://b.example/w': dbDatum(S.STATUS_DB_FETCHED, { signature: SIG1, score: 1 }),
  };
  const expected = {
    none: ['http://www.a.example/y', 'http://blog.a.example/z', 'http://b.example/w'],
    host: ['http://www.a.example/y'],
    domain: ['http://www.a.example/y', 'http://blog.a.example/z'],
  } as const;
  for (const group of ['none', 'host', 'domain'] as const) {
    const { ctx, crawlDb } = setup(t);
    await writeCrawlDb(ctx.storage, crawlDb, entries);
    await dedup(ctx, { crawlDb, group, compareOrder: ['score', 'urlLength'] });
    const s = await statuses(ctx, crawlDb);
    assert.deepEqual(Object.keys(s).filter((u) => s[u] === 'db_duplicate').sort(), [...expected[group]].sort(), group);
  }
});

test('dedup rejects an unknown compare criterion, and a CrawlDb that does not exist', async (t) => {
  const { ctx, crawlDb } = setup(t);
  await assert.rejects(dedup(ctx, { crawlDb, compareOrder: ['score', 'size'] }), /unknown criterion "size"/);
  await assert.rejects(dedup(ctx, { crawlDb }), (e: { code?: string }) => e.code === 'NUTCH_STORAGE_NOT_FOUND');
});

test('CLI: nutch dedup -group host -compareOrder', async (t) => {
  // the context works in the CLI's directory, so `crawldb` names the same store on every engine
  const dir = tempDir(t);
  const ctx = fixtureContext(t, { cwd: dir, includeBuiltins: true });
  const crawlDb = path.join(dir, 'crawldb');
  await writeCrawlDb(ctx.storage, crawlDb, {
    'http://a.example/1': dbDatum(S.STATUS_DB_FETCHED, { signature: SIG1, fetchTime: T0 + 5 }),
    'http://a.example/2': dbDatum(S.STATUS_DB_FETCHED, { signature: SIG1, fetchTime: T0 }),
  });
  const r = await runNutch(['dedup', 'crawldb', '-group', 'host', '-compareOrder', 'fetchTime,score'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Deduplication: 1 documents marked as duplicates/);
  assert.equal((await statuses(ctx, crawlDb))['http://a.example/2'], 'db_duplicate');
  assert.equal((await runNutch(['dedup', 'crawldb', '-group', 'planet'], { cwd: dir })).code, 2);
  assert.equal((await runNutch(['dedup', 'crawldb', '-compareOrder', 'bogus'], { cwd: dir })).code, 2);
});

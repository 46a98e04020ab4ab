/**
 * Every CrawlDbReducer transition, as a table: old CrawlDb datum + segment datums -> new datum.
 * Runs with the real DefaultFetchSchedule and OPIC scoring filter from the built-in plugins.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { CrawlStatus as S, createCrawlDatum, statusName, type CrawlDatum } from '../../core/model/crawl-datum.js';
import { reduceCrawlDatum, type CrawlDbReducerEnv } from '../../core/crawl/updatedb/crawl-db-reducer.js';
import { CrawlDbValues } from '../../core/crawl/updatedb/crawl-db-values.js';
import { fixtureContext } from '../helpers/context.js';

const URL = 'http://www.example.com/page.html';
const T0 = 1_700_000_000_000; // previous fetch
const T1 = T0 + 40 * 86400_000; // this fetch
const DAY = 86400;
const INTERVAL = 2592000; // db.fetch.interval.default
const SIG_A = new Uint8Array([1, 2, 3, 4]);
const SIG_B = new Uint8Array([9, 9, 9, 9]);

const db = (status: number, extra: Partial<CrawlDatum> = {}): CrawlDatum =>
  createCrawlDatum({ status, fetchTime: T0, fetchInterval: INTERVAL, score: 1, modifiedTime: T0 - 1000, ...extra });
const fetched = (status: number, extra: Partial<CrawlDatum> = {}): CrawlDatum =>
  createCrawlDatum({ status, fetchTime: T1, fetchInterval: INTERVAL, score: 1, modifiedTime: 0, ...extra });
const link = (score: number, extra: Partial<CrawlDatum> = {}): CrawlDatum =>
  createCrawlDatum({ status: S.STATUS_LINKED, fetchTime: T1, fetchInterval: INTERVAL, score, ...extra });
const sig = (signature: Uint8Array): CrawlDatum => createCrawlDatum({ status: S.STATUS_SIGNATURE, signature, score: 0, fetchInterval: 0 });
const parseMeta = (md: Record<string, string[]>): CrawlDatum => createCrawlDatum({ status: S.STATUS_PARSE_META, metaData: md, score: 0 });

interface Case {
  name: string;
  values: CrawlDatum[];
  defines?: Record<string, string>;
  maxLinks?: number;
  additionsAllowed?: boolean;
  /** null: nothing written. */
  expect: null | (Partial<Omit<CrawlDatum, 'fetchTime'>> & { fetchTime?: number | 'now' });
}

const cases: Case[] = [
  // --- new URLs discovered through links
  { name: 'new URL, one inlink -> db_unfetched, OPIC score = 0 + inlink score', values: [link(0.5)],
    expect: { status: S.STATUS_DB_UNFETCHED, score: 0.5, retries: 0, fetchInterval: INTERVAL, fetchTime: 'now' } },
  { name: 'new URL, three inlinks -> scores summed', values: [link(0.25), link(0.5), link(0.125)],
    expect: { status: S.STATUS_DB_UNFETCHED, score: 0.875 } },
  { name: 'new URL, additions not allowed (-noAdditions) -> nothing', values: [link(0.5)], additionsAllowed: false, expect: null },
  { name: 'new URL keeps the linked datum metadata (redirect _repr_)', values: [link(0.5, { metaData: { _repr_: ['http://www.example.com/'] } })],
    expect: { status: S.STATUS_DB_UNFETCHED, metaData: { _repr_: ['http://www.example.com/'] } } },
  { name: 'db.update.max.inlinks = 2 keeps the two highest scores', values: [link(0.1), link(0.4), link(0.2), link(0.3)], maxLinks: 2,
    expect: { status: S.STATUS_DB_UNFETCHED, score: 0.7 } },
  { name: 'nothing at all -> nothing', values: [], expect: null },
  { name: 'lone signature for an unknown URL -> nothing', values: [sig(SIG_A)], expect: null },

  // --- known URLs, inlinks only: status kept, score grows
  { name: 'db_unfetched + inlinks -> db_unfetched, score += inlinks', values: [db(S.STATUS_DB_UNFETCHED), link(0.5)],
    expect: { status: S.STATUS_DB_UNFETCHED, score: 1.5, fetchTime: T0 } },
  { name: 'db_fetched + inlinks -> db_fetched', values: [db(S.STATUS_DB_FETCHED, { signature: SIG_A }), link(0.25), link(0.25)],
    expect: { status: S.STATUS_DB_FETCHED, score: 1.5, signature: SIG_A, fetchTime: T0 } },
  { name: 'db_gone + inlinks -> db_gone', values: [db(S.STATUS_DB_GONE), link(1)], expect: { status: S.STATUS_DB_GONE, score: 2 } },
  { name: 'db_redir_temp + inlinks -> db_redir_temp', values: [db(S.STATUS_DB_REDIR_TEMP), link(1)], expect: { status: S.STATUS_DB_REDIR_TEMP } },
  { name: 'db_redir_perm + inlinks -> db_redir_perm', values: [db(S.STATUS_DB_REDIR_PERM), link(1)], expect: { status: S.STATUS_DB_REDIR_PERM } },
  { name: 'db_notmodified + inlinks -> db_notmodified', values: [db(S.STATUS_DB_NOTMODIFIED), link(1)], expect: { status: S.STATUS_DB_NOTMODIFIED } },
  { name: 'db_duplicate + inlinks -> db_duplicate', values: [db(S.STATUS_DB_DUPLICATE), link(1)], expect: { status: S.STATUS_DB_DUPLICATE, score: 2 } },
  { name: 'old only (no new data) -> unchanged', values: [db(S.STATUS_DB_FETCHED, { metaData: { _ngt_: ['5'] } })],
    expect: { status: S.STATUS_DB_FETCHED, score: 1, fetchTime: T0, metaData: { _ngt_: ['5'] } } },
  { name: 'two old datums -> the latest by fetch time', values: [db(S.STATUS_DB_FETCHED, { fetchTime: T0 - 5 }), db(S.STATUS_DB_GONE, { fetchTime: T0 })],
    expect: { status: S.STATUS_DB_GONE } },

  // --- successful fetches
  { name: 'db_unfetched + fetch_success -> db_fetched, next fetch = fetch time + interval', values: [db(S.STATUS_DB_UNFETCHED), fetched(S.STATUS_FETCH_SUCCESS, { modifiedTime: T1 - 5000 }), sig(SIG_A)],
    expect: { status: S.STATUS_DB_FETCHED, signature: SIG_A, fetchTime: T1 + INTERVAL * 1000, modifiedTime: T1 - 5000, retries: 0, score: 1 } },
  { name: 'new URL + fetch_success (free generator) -> db_fetched', values: [fetched(S.STATUS_FETCH_SUCCESS), sig(SIG_A)],
    expect: { status: S.STATUS_DB_FETCHED, signature: SIG_A } },
  { name: 'fetch_success with the signature on the fetch datum itself', values: [db(S.STATUS_DB_UNFETCHED), fetched(S.STATUS_FETCH_SUCCESS, { signature: SIG_B })],
    expect: { status: S.STATUS_DB_FETCHED, signature: SIG_B } },
  { name: 'db_fetched + fetch_success, same signature -> db_notmodified, modified time stays the previous (NUTCH-1341)',
    values: [db(S.STATUS_DB_FETCHED, { signature: SIG_A }), fetched(S.STATUS_FETCH_SUCCESS, { modifiedTime: T1 }), sig(new Uint8Array(SIG_A))],
    expect: { status: S.STATUS_DB_NOTMODIFIED, signature: SIG_A, modifiedTime: T0 - 1000, fetchTime: T1 + INTERVAL * 1000 } },
  { name: 'db_fetched + fetch_success, changed signature -> db_fetched with the new signature and modified time',
    values: [db(S.STATUS_DB_FETCHED, { signature: SIG_A }), fetched(S.STATUS_FETCH_SUCCESS, { modifiedTime: T1 }), sig(SIG_B)],
    expect: { status: S.STATUS_DB_FETCHED, signature: SIG_B, modifiedTime: T1 } },
  { name: 'db_notmodified + fetch_success, changed signature -> db_fetched', values: [db(S.STATUS_DB_NOTMODIFIED, { signature: SIG_A }), fetched(S.STATUS_FETCH_SUCCESS), sig(SIG_B)],
    expect: { status: S.STATUS_DB_FETCHED, signature: SIG_B } },
  { name: 'db_fetched + fetch_notmodified (HTTP 304) -> db_notmodified, old signature kept',
    values: [db(S.STATUS_DB_FETCHED, { signature: SIG_A }), fetched(S.STATUS_FETCH_NOTMODIFIED)],
    expect: { status: S.STATUS_DB_NOTMODIFIED, signature: SIG_A, modifiedTime: T0 - 1000, fetchTime: T1 + INTERVAL * 1000 } },
  { name: 'db_duplicate + fetch_success -> db_fetched', values: [db(S.STATUS_DB_DUPLICATE), fetched(S.STATUS_FETCH_SUCCESS), sig(SIG_B)],
    expect: { status: S.STATUS_DB_FETCHED, signature: SIG_B } },
  { name: 'db_duplicate + fetch_notmodified -> db_notmodified', values: [db(S.STATUS_DB_DUPLICATE, { signature: SIG_A }), fetched(S.STATUS_FETCH_NOTMODIFIED)],
    expect: { status: S.STATUS_DB_NOTMODIFIED, signature: SIG_A } },
  { name: 'db_gone + fetch_success -> db_fetched (page is back)', values: [db(S.STATUS_DB_GONE, { retries: 3 }), fetched(S.STATUS_FETCH_SUCCESS, { retries: 3 }), sig(SIG_A)],
    expect: { status: S.STATUS_DB_FETCHED, retries: 0 } },
  { name: 'fetch_success + inlinks -> db_fetched, OPIC score = old + inlinks', values: [db(S.STATUS_DB_UNFETCHED, { score: 2 }), fetched(S.STATUS_FETCH_SUCCESS), link(0.5), link(0.25)],
    expect: { status: S.STATUS_DB_FETCHED, score: 2.75 } },
  { name: 'two fetch datums -> the latest by fetch time wins', values: [db(S.STATUS_DB_UNFETCHED), fetched(S.STATUS_FETCH_GONE, { fetchTime: T1 - 10 }), fetched(S.STATUS_FETCH_SUCCESS)],
    expect: { status: S.STATUS_DB_FETCHED } },

  // --- redirects (signatures never make a redirect "not modified", NUTCH-1422)
  { name: 'db_unfetched + fetch_redir_temp -> db_redir_temp', values: [db(S.STATUS_DB_UNFETCHED), fetched(S.STATUS_FETCH_REDIR_TEMP)],
    expect: { status: S.STATUS_DB_REDIR_TEMP, fetchTime: T1 + INTERVAL * 1000 } },
  { name: 'db_unfetched + fetch_redir_perm -> db_redir_perm', values: [db(S.STATUS_DB_UNFETCHED), fetched(S.STATUS_FETCH_REDIR_PERM)],
    expect: { status: S.STATUS_DB_REDIR_PERM } },
  { name: 'db_redir_temp + fetch_redir_temp with an unchanged signature -> still db_redir_temp',
    values: [db(S.STATUS_DB_REDIR_TEMP, { signature: SIG_A }), fetched(S.STATUS_FETCH_REDIR_TEMP), sig(SIG_A)],
    expect: { status: S.STATUS_DB_REDIR_TEMP, signature: SIG_A } },
  { name: 'db_fetched + fetch_redir_perm -> db_redir_perm', values: [db(S.STATUS_DB_FETCHED, { signature: SIG_A }), fetched(S.STATUS_FETCH_REDIR_PERM)],
    expect: { status: S.STATUS_DB_REDIR_PERM, signature: null } },

  // --- gone and retry
  { name: 'db_fetched + fetch_gone -> db_gone, interval x1.5, old signature kept',
    values: [db(S.STATUS_DB_FETCHED, { signature: SIG_A }), fetched(S.STATUS_FETCH_GONE)],
    expect: { status: S.STATUS_DB_GONE, signature: SIG_A, fetchInterval: INTERVAL * 1.5, fetchTime: T1 + INTERVAL * 1.5 * 1000 } },
  { name: 'fetch_gone with a large interval -> interval 90% of db.fetch.interval.max',
    values: [db(S.STATUS_DB_FETCHED, { fetchInterval: 6_000_000 }), fetched(S.STATUS_FETCH_GONE, { fetchInterval: 6_000_000 })],
    expect: { status: S.STATUS_DB_GONE, fetchInterval: 7776000 * 0.9 } },
  { name: 'db_unfetched + fetch_retry (retries 0) -> db_unfetched, retries 1, retry in a day',
    values: [db(S.STATUS_DB_UNFETCHED), fetched(S.STATUS_FETCH_RETRY)],
    expect: { status: S.STATUS_DB_UNFETCHED, retries: 1, fetchTime: T1 + DAY * 1000 } },
  { name: 'fetch_retry with retries 1 -> db_unfetched, retries 2', values: [db(S.STATUS_DB_UNFETCHED, { retries: 1 }), fetched(S.STATUS_FETCH_RETRY, { retries: 1 })],
    expect: { status: S.STATUS_DB_UNFETCHED, retries: 2 } },
  { name: 'fetch_retry reaching db.fetch.retry.max (3) -> db_gone with the gone schedule',
    values: [db(S.STATUS_DB_UNFETCHED, { retries: 2 }), fetched(S.STATUS_FETCH_RETRY, { retries: 2 })],
    expect: { status: S.STATUS_DB_GONE, retries: 3, fetchInterval: INTERVAL * 1.5, fetchTime: T1 + INTERVAL * 1.5 * 1000 } },
  { name: 'db.fetch.retry.max = 1: the first retry is already gone', defines: { 'db.fetch.retry.max': '1' },
    values: [db(S.STATUS_DB_UNFETCHED), fetched(S.STATUS_FETCH_RETRY)], expect: { status: S.STATUS_DB_GONE, retries: 1 } },
  { name: 'db_fetched + fetch_retry -> db_unfetched, old signature kept', values: [db(S.STATUS_DB_FETCHED, { signature: SIG_A }), fetched(S.STATUS_FETCH_RETRY)],
    expect: { status: S.STATUS_DB_UNFETCHED, signature: SIG_A } },
  { name: 'new URL + fetch_retry -> db_unfetched', values: [fetched(S.STATUS_FETCH_RETRY)], expect: { status: S.STATUS_DB_UNFETCHED, retries: 1 } },

  // --- metadata, interval cap
  { name: 'old metadata kept, fetch metadata overlays, _ngt_ removed',
    values: [db(S.STATUS_DB_UNFETCHED, { metaData: { a: ['old'], b: ['old'], _ngt_: ['1'] } }), fetched(S.STATUS_FETCH_SUCCESS, { metaData: { b: ['new'], _ngt_: ['2'] } })],
    expect: { status: S.STATUS_DB_FETCHED, metaData: { a: ['old'], b: ['new'] } } },
  { name: 'parse metadata (db.parsemeta.to.crawldb) lands in the datum', values: [db(S.STATUS_DB_UNFETCHED), fetched(S.STATUS_FETCH_SUCCESS), parseMeta({ lang: ['en'] })],
    expect: { status: S.STATUS_DB_FETCHED, metaData: { lang: ['en'] } } },
  { name: 'interval above db.fetch.interval.max -> forced refetch: db_unfetched, no signature', defines: { 'db.fetch.interval.max': '1000000' },
    values: [db(S.STATUS_DB_FETCHED, { fetchInterval: 2_000_000 }), fetched(S.STATUS_FETCH_SUCCESS, { fetchInterval: 2_000_000 }), sig(SIG_A)],
    expect: { status: S.STATUS_DB_UNFETCHED, signature: null, fetchInterval: 900000, modifiedTime: 0 } },
];

async function envFor(t: TestContext, c: Case): Promise<CrawlDbReducerEnv & { warnings: string[] }> {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: c.defines });
  const warnings: string[] = [];
  return {
    schedule: await ctx.extensions.fetchSchedule(),
    scoring: await ctx.extensions.scoringFilters(),
    retryMax: ctx.conf.getInt('db.fetch.retry.max'),
    additionsAllowed: c.additionsAllowed ?? true,
    maxInterval: ctx.conf.getInt('db.fetch.interval.max'),
    log: { warn: (m: string) => warnings.push(m) },
    warnings,
  };
}

for (const c of cases) {
  test(`CrawlDbReducer: ${c.name}`, async (t) => {
    const env = await envFor(t, c);
    const values = new CrawlDbValues(c.maxLinks ?? 10000);
    const frozen = JSON.stringify(c.values, (_k, v) => (v instanceof Uint8Array ? [...v] : v));
    for (const v of c.values) values.add(v);
    const before = Date.now();
    const result = reduceCrawlDatum(URL, values.input(), env);
    assert.equal(JSON.stringify(c.values, (_k, v) => (v instanceof Uint8Array ? [...v] : v)), frozen, 'inputs are not mutated');
    if (c.expect === null) {
      assert.equal(result, null);
      return;
    }
    assert.ok(result, 'a datum is written');
    const { fetchTime, ...rest } = c.expect;
    assert.equal(statusName(result.status), statusName(rest.status ?? result.status));
    for (const [k, v] of Object.entries(rest)) {
      const actual: unknown = (result as unknown as Record<string, unknown>)[k];
      if (v instanceof Uint8Array) assert.deepEqual([...(actual as Uint8Array)], [...v], k);
      else assert.deepEqual(actual, v, k);
    }
    if (fetchTime === 'now') assert.ok(result.fetchTime >= before && result.fetchTime <= Date.now(), 'fetch time is now');
    else if (fetchTime !== undefined) assert.equal(result.fetchTime, fetchTime, 'fetchTime');
  });
}

test('CrawlDbReducer: the highest-scoring linked datum stands in for the fetch of a new URL', async (t) => {
  const env = await envFor(t, { name: '', values: [], expect: null });
  const values = new CrawlDbValues(10000);
  values.add(link(0.1, { metaData: { from: ['low'] } }));
  values.add(link(0.9, { metaData: { from: ['high'] } }));
  const input = values.input();
  assert.deepEqual(input.linked.map((d) => d.score), [0.9, 0.1]);
  assert.deepEqual(reduceCrawlDatum(URL, input, env)!.metaData, { from: ['high'] });
});

test('CrawlDbReducer: unknown datum statuses are counted, not fatal', () => {
  const values = new CrawlDbValues(10);
  values.add(createCrawlDatum({ status: 0x7f }));
  assert.equal(values.unknown, 1);
});

test('CrawlDbReducer: orphanedScore runs on entries without new data; its errors are logged', () => {
  const calls: string[] = [];
  const env: CrawlDbReducerEnv = {
    schedule: {} as never,
    scoring: {
      initialScore() {},
      updateDbScore() {},
      orphanedScore(url, d) { calls.push(url); d.status = S.STATUS_DB_ORPHAN; },
    },
    retryMax: 3, additionsAllowed: true, maxInterval: 7776000,
  };
  const old = db(S.STATUS_DB_FETCHED);
  const out = reduceCrawlDatum(URL, { old, fetch: null, linked: [], signature: null, parseMeta: null }, env)!;
  assert.equal(out.status, S.STATUS_DB_ORPHAN);
  assert.equal(old.status, S.STATUS_DB_FETCHED, 'old datum untouched');
  assert.deepEqual(calls, [URL]);
  const warnings: string[] = [];
  env.scoring.orphanedScore = () => { throw new Error('boom'); };
  env.log = { warn: (m) => warnings.push(m) };
  assert.equal(reduceCrawlDatum(URL, { old, fetch: null, linked: [], signature: null, parseMeta: null }, env)!.status, S.STATUS_DB_FETCHED);
  assert.match(warnings[0]!, /boom/);
});

test('CrawlDbReducer: AdaptiveFetchSchedule shrinks the interval of a changed page and grows an unchanged one', async (t) => {
  const base: Case = { name: '', values: [], expect: null, defines: { 'db.fetch.schedule.class': 'org.apache.nutch.crawl.AdaptiveFetchSchedule', 'db.fetch.schedule.adaptive.sync_delta': 'false' } };
  const env = await envFor(t, base);
  const changed = new CrawlDbValues(10);
  for (const v of [db(S.STATUS_DB_FETCHED, { signature: SIG_A }), fetched(S.STATUS_FETCH_SUCCESS), sig(SIG_B)]) changed.add(v);
  const r1 = reduceCrawlDatum(URL, changed.input(), env)!;
  assert.equal(r1.status, S.STATUS_DB_FETCHED);
  assert.ok(Math.abs(r1.fetchInterval - INTERVAL * (1 - 0.2)) < 1, `interval decreased by dec_rate: ${r1.fetchInterval}`);
  const same = new CrawlDbValues(10);
  for (const v of [db(S.STATUS_DB_FETCHED, { signature: SIG_A }), fetched(S.STATUS_FETCH_SUCCESS), sig(SIG_A)]) same.add(v);
  const r2 = reduceCrawlDatum(URL, same.input(), env)!;
  assert.equal(r2.status, S.STATUS_DB_NOTMODIFIED);
  assert.ok(Math.abs(r2.fetchInterval - INTERVAL * (1 + 0.4)) < 1, `interval increased by inc_rate: ${r2.fetchInterval}`);
});

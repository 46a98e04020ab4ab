import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestContext } from '../../sdk/testing.js';
import { CrawlStatus, createCrawlDatum, type FetchSchedule } from '../../sdk/plugin.js';

const DAY = 86_400_000;

async function schedule(config: Record<string, unknown> = {}): Promise<FetchSchedule> {
  const confDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nutch-sched-'));
  process.env.NUTCH_CONF_DIR = confDir;
  const ctx = createTestContext({ config: { 'db.fetch.schedule.class': 'org.apache.nutch.crawl.DefaultFetchSchedule', ...config } });
  return ctx.extensions.fetchSchedule();
}

test('selected by its Nutch class name; initializeSchedule sets now, the default interval, no retries', async () => {
  const s = await schedule({ 'db.fetch.interval.default': 1000 });
  const before = Date.now();
  const d = s.initializeSchedule('http://a/', createCrawlDatum({ status: 1, fetchTime: 5, fetchInterval: 7, retries: 2 }));
  assert.ok(d.fetchTime >= before && d.fetchTime <= Date.now());
  assert.equal(d.fetchInterval, 1000);
  assert.equal(d.retries, 0);
});

test('setFetchSchedule: fetchTime + interval, modifiedTime kept, retries reset; interval 0 takes the default', async () => {
  const s = await schedule({ 'db.fetch.interval.default': 2592000 });
  const d = s.setFetchSchedule('http://a/', createCrawlDatum({ status: 2, fetchInterval: 3600, retries: 2 }), 0, 0, 1_000_000, 777, 1);
  assert.deepEqual([d.fetchTime, d.modifiedTime, d.retries, d.fetchInterval], [1_000_000 + 3_600_000, 777, 0, 3600]);
  const z = s.setFetchSchedule('http://a/', createCrawlDatum({ status: 2, fetchInterval: 0 }), 0, 0, 0, 0, 0);
  assert.equal(z.fetchInterval, 2592000);
  assert.equal(z.fetchTime, 2592000 * 1000);
});

test('gone: interval x1.5 up to 90% of db.fetch.interval.max; retry: +1 day and one more retry', async () => {
  const s = await schedule({ 'db.fetch.interval.max': 7776000 });
  const g = s.setPageGoneSchedule('http://a/', createCrawlDatum({ status: 3, fetchInterval: 1000 }), 0, 0, 10_000);
  assert.equal(g.fetchInterval, 1500);
  assert.equal(g.fetchTime, 10_000 + 1_500_000);
  const big = s.setPageGoneSchedule('http://a/', createCrawlDatum({ status: 3, fetchInterval: 6_000_000 }), 0, 0, 0);
  assert.equal(big.fetchInterval, 7776000 * 0.9);
  const r = s.setPageRetrySchedule('http://a/', createCrawlDatum({ status: 1, retries: 1 }), 0, 0, 50);
  assert.equal(r.fetchTime, 50 + DAY);
  assert.equal(r.retries, 2);
});

test('shouldFetch: due when fetchTime <= now; a fetch time beyond the max interval is pulled back', async () => {
  const s = await schedule({ 'db.fetch.interval.max': 1000 });
  const now = 10_000_000;
  assert.equal(s.shouldFetch('u', createCrawlDatum({ status: 1, fetchTime: now }), now), true);
  assert.equal(s.shouldFetch('u', createCrawlDatum({ status: 1, fetchTime: now + 500_000, fetchInterval: 10 }), now), false);
  const far = createCrawlDatum({ status: 2, fetchTime: now + 2_000_000, fetchInterval: 5000 });
  assert.equal(s.shouldFetch('u', far, now), true);
  assert.equal(far.fetchTime, now);
  assert.equal(far.fetchInterval, 900);
});

test('calculateLastFetchTime and forceRefetch', async () => {
  const s = await schedule({ 'db.fetch.interval.max': 1000 });
  assert.equal(s.calculateLastFetchTime(createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED, fetchTime: 99 })), 0);
  assert.equal(s.calculateLastFetchTime(createCrawlDatum({ status: 2, fetchTime: 100_000, fetchInterval: 60 })), 40_000);
  const d = s.forceRefetch('u', createCrawlDatum({ status: 2, fetchInterval: 5000, retries: 3, signature: new Uint8Array([1]), modifiedTime: 5, fetchTime: 1 }), true);
  assert.deepEqual([d.status, d.fetchInterval, d.retries, d.signature, d.modifiedTime], [1, 900, 0, null, 0]);
  assert.ok(d.fetchTime > 1);
});

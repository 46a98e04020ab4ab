import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestContext } from '../../sdk/testing.js';
import { FetchScheduleState, createCrawlDatum, type FetchSchedule } from '../../sdk/plugin.js';

async function schedule(config: Record<string, unknown> = {}): Promise<FetchSchedule> {
  process.env.NUTCH_CONF_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'nutch-sched-'));
  const ctx = createTestContext({ config: { 'db.fetch.schedule.class': 'org.apache.nutch.crawl.AdaptiveFetchSchedule', ...config } });
  return ctx.extensions.fetchSchedule();
}

const T = 1_000_000_000_000;
const noSync = { 'db.fetch.schedule.adaptive.sync_delta': false };

test('modified: interval x (1 - dec_rate), modifiedTime = fetchTime', async () => {
  const s = await schedule(noSync); // dec_rate 0.2 (nutch-default)
  const d = s.setFetchSchedule('u', createCrawlDatum({ status: 2, fetchInterval: 10_000, retries: 1 }), 0, 0, T, 0, FetchScheduleState.STATUS_MODIFIED);
  assert.equal(d.fetchInterval, 8000);
  assert.equal(d.fetchTime, T + 8_000_000);
  assert.equal(d.modifiedTime, T);
  assert.equal(d.retries, 0);
});

test('not modified: interval x (1 + inc_rate), clamped to max_interval', async () => {
  const s = await schedule({ ...noSync, 'db.fetch.schedule.adaptive.max_interval': 13_000 }); // inc_rate 0.4
  const d = s.setFetchSchedule('u', createCrawlDatum({ status: 2, fetchInterval: 9000 }), 0, 0, T, T - 5000, FetchScheduleState.STATUS_NOTMODIFIED);
  assert.equal(d.fetchInterval, 12_600);
  const e = s.setFetchSchedule('u', createCrawlDatum({ status: 2, fetchInterval: 10_000 }), 0, 0, T, T - 5000, FetchScheduleState.STATUS_NOTMODIFIED);
  assert.equal(e.fetchInterval, 13_000);
  assert.equal(e.modifiedTime, T - 5000);
});

test('min_interval floor; unknown state keeps the interval', async () => {
  const s = await schedule({ ...noSync, 'db.fetch.schedule.adaptive.min_interval': 100 });
  assert.equal(s.setFetchSchedule('u', createCrawlDatum({ status: 2, fetchInterval: 110 }), 0, 0, T, 0, FetchScheduleState.STATUS_MODIFIED).fetchInterval, 100);
  assert.equal(s.setFetchSchedule('u', createCrawlDatum({ status: 2, fetchInterval: 500 }), 0, 0, T, 0, FetchScheduleState.STATUS_UNKNOWN).fetchInterval, 500);
});

test('sync_delta: interval at least the time since modification, next fetch pulled back by delta x rate', async () => {
  const s = await schedule({ 'db.fetch.schedule.adaptive.sync_delta_rate': 0.5 });
  // not modified for 20,000 s; interval 1000 -> 1400 -> raised to the delta 20,000
  const d = s.setFetchSchedule('u', createCrawlDatum({ status: 2, fetchInterval: 1000 }), 0, 0, T, T - 20_000_000, FetchScheduleState.STATUS_NOTMODIFIED);
  assert.equal(d.fetchInterval, 20_000);
  assert.equal(d.fetchTime, T - 10_000_000 + 20_000_000);
});

test('a fixed interval in metadata (nutch.fetchInterval.fixed) is kept as is', async () => {
  const s = await schedule();
  const d = s.setFetchSchedule('u', createCrawlDatum({ status: 2, fetchInterval: 1000, metaData: { fixedInterval: ['3600'] } }), 0, 0, T, 0, FetchScheduleState.STATUS_MODIFIED);
  assert.equal(d.fetchInterval, 3600);
  assert.equal(d.fetchTime, T + 3_600_000);
});

test('an interval of 0 starts from db.fetch.interval.default (NUTCH-1430)', async () => {
  const s = await schedule({ ...noSync, 'db.fetch.interval.default': 1000 });
  assert.equal(s.setFetchSchedule('u', createCrawlDatum({ status: 2, fetchInterval: 0 }), 0, 0, T, 0, FetchScheduleState.STATUS_UNKNOWN).fetchInterval, 1000);
});

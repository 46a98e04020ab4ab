import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readdb } from '../../core/crawl/readdb/readdb.js';
import { datumToString, javaDate, javaFloat, secondsToDaysHMS } from '../../core/crawl/readdb/datum-format.js';
import { createCrawlDatum, type CrawlDatum } from '../../core/model/crawl-datum.js';
import { tempDir } from '../helpers/temp-dir.js';
import { sqliteOnly } from '../helpers/test-storage.js';
import { collect } from '../storage/storage-helpers.js';
import { stageContext } from '../storage/stage-context.js';
import type { NutchContext } from '../../core/crawl/context.js';

const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);

async function fixtureDb(ctx: NutchContext, dir: string): Promise<string> {
  const crawlDb = path.join(dir, 'crawldb');
  const db = await ctx.storage.openCrawlDb(crawlDb);
  const up = await db.beginUpdate();
  const recs: [string, Partial<CrawlDatum>][] = [
    ['http://a.example/1', { status: 1, score: 1, fetchInterval: 2592000 }],
    ['http://a.example/2', { status: 2, score: 2, fetchInterval: 86400, retries: 1, signature: new Uint8Array([0xab, 0xcd]) }],
    ['http://b.example/1', { status: 2, score: 0.5, fetchInterval: 3600, metaData: { _pst_: ['success(1), lastModified=0'] } }],
    ['http://b.example/2', { status: 3, score: 0, fetchInterval: 2592000, retries: 3 }],
  ];
  await up.put(recs.map(([url, d]) => ({ url, value: createCrawlDatum({ fetchTime: T0, modifiedTime: 0, ...d, status: d.status! }) })));
  await up.commit();
  await db.close();
  return crawlDb;
}

async function printed(ctx: NutchContext, args: Parameters<typeof readdb>[1]): Promise<string> {
  let out = '';
  await readdb(ctx, { ...args, print: (t) => { out += t; } });
  return out;
}

test('Nutch value formats: Java dates, floats, days/HMS', () => {
  assert.equal(javaDate(T0), 'Mon Nov 23 10:00:00 UTC 2026');
  assert.equal(javaFloat(1), '1.0');
  assert.equal(javaFloat(0.25), '0.25');
  assert.equal(javaFloat(1 / 3), '0.33333334');
  assert.equal(javaFloat(0.1), '0.1');
  assert.equal(javaFloat(1e10), '1.0E10');
  assert.equal(javaFloat(0.0001), '1.0E-4');
  assert.equal(secondsToDaysHMS(2592000), '30 days, 00:00:00');
  assert.equal(secondsToDaysHMS(90061), '1 days, 01:01:01');
});

test('-stats prints Nutch\'s layout: TOTAL, intervals, fetch times, retries, quantiles, scores, statuses', async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t);
  const crawlDb = await fixtureDb(ctx, dir);
  const out = await printed(ctx, { crawlDb, stats: true });
  const lines = out.trimEnd().split('\n');
  assert.deepEqual(lines.slice(0, 8), [
    `Statistics for CrawlDb: ${crawlDb}`,
    'TOTAL urls:\t4',
    'shortest fetch interval:\t0 days, 01:00:00',
    'avg fetch interval:\t15 days, 06:15:00',
    'longest fetch interval:\t30 days, 00:00:00',
    'earliest fetch time:\tMon Nov 23 10:00:00 UTC 2026',
    'avg of fetch times:\tMon Nov 23 10:00:00 UTC 2026',
    'latest fetch time:\tMon Nov 23 10:00:00 UTC 2026',
  ]);
  assert.ok(lines.includes('retry 0:\t2'));
  assert.ok(lines.includes('retry 1:\t1'));
  assert.ok(lines.includes('retry 3:\t1'));
  assert.ok(lines.includes('score quantile 0.5:\t1'));
  assert.ok(lines.includes('score quantile 0.01:\t0'));
  assert.ok(lines.includes('score quantile 0.99:\t2'));
  assert.ok(lines.includes('min score:\t0.0'));
  assert.ok(lines.includes('avg score:\t0.875'));
  assert.ok(lines.includes('max score:\t2.0'));
  assert.deepEqual(lines.slice(-3), ['status 1 (db_unfetched):\t1', 'status 2 (db_fetched):\t2', 'status 3 (db_gone):\t1']);
  const sorted = await printed(ctx, { crawlDb, stats: true, sort: true });
  assert.match(sorted, /status 2 \(db_fetched\):\t2\n   a\.example :\t1\n   b\.example :\t1\n/);
  const json = JSON.parse(await printed(ctx, { crawlDb, stats: true, json: true }));
  assert.equal(json.totalUrls, 4);
  assert.deepEqual(json.status.db_fetched, { code: 2, count: 2 });
});

test('-url prints CrawlDatum.toString or "not found"', async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t);
  const crawlDb = await fixtureDb(ctx, dir);
  const out = await printed(ctx, { crawlDb, url: 'http://a.example/2' });
  assert.equal(out, [
    'URL: http://a.example/2',
    'Version: 7',
    'Status: 2 (db_fetched)',
    'Fetch time: Mon Nov 23 10:00:00 UTC 2026',
    'Modified time: Thu Jan 01 00:00:00 UTC 1970',
    'Retries since fetch: 1',
    'Retry interval: 86400 seconds (1.0 days)',
    'Score: 2.0',
    'Signature: abcd',
    'Metadata: ',
    ' ',
    '',
    '',
  ].join('\n'));
  assert.equal(await printed(ctx, { crawlDb, url: 'http://nope/' }), 'URL: http://nope/\nnot found\n');
});

test('-dump normal / csv / json / crawldb with -status, -regex, -retry', async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t);
  const crawlDb = await fixtureDb(ctx, dir);
  let c = await readdb(ctx, { crawlDb, dump: path.join(dir, 'normal') });
  assert.equal(c.dumped, 4);
  const normal = fs.readFileSync(path.join(dir, 'normal', 'part-r-00000'), 'utf8');
  assert.ok(normal.startsWith('http://a.example/1\tVersion: 7\nStatus: 1 (db_unfetched)\n'));
  assert.match(normal, /http:\/\/b\.example\/1\tVersion: 7[\s\S]*Metadata: \n \t_pst_=success\(1\), lastModified=0\n/);

  c = await readdb(ctx, { crawlDb, dump: path.join(dir, 'csv'), format: 'csv', status: 'db_fetched' });
  assert.equal(c.dumped, 2);
  const csv = fs.readFileSync(path.join(dir, 'csv', 'part-r-00000'), 'utf8').trimEnd().split('\n');
  assert.equal(csv[0], 'Url,Status code,Status name,Fetch Time,Modified Time,Retries since fetch,Retry interval seconds,Retry interval days,Score,Signature,Metadata');
  assert.equal(csv[1], '"http://a.example/2",2,"db_fetched",Mon Nov 23 10:00:00 UTC 2026,Thu Jan 01 00:00:00 UTC 1970,1,86400.0,1.0,2.0,"abcd",""');

  c = await readdb(ctx, { crawlDb, dump: path.join(dir, 'json'), format: 'json', regex: 'http://b\\.example/.*' });
  const json = fs.readFileSync(path.join(dir, 'json', 'part-r-00000'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(json.map((j) => [j.url, j.statusName]), [['http://b.example/1', 'db_fetched'], ['http://b.example/2', 'db_gone']]);

  c = await readdb(ctx, { crawlDb, dump: path.join(dir, 'copy'), format: 'crawldb', retry: 1 });
  assert.equal(c.dumped, 2);
  const copy = await ctx.storage.openCrawlDb(path.join(dir, 'copy'));
  assert.deepEqual((await collect(copy.scan())).map((r) => r.url), ['http://a.example/2', 'http://b.example/2']);
  await copy.close();

  await assert.rejects(readdb(ctx, { crawlDb, dump: path.join(dir, 'normal') }), { code: 'NUTCH_STORAGE_EXISTS' });
  await assert.rejects(readdb(ctx, { crawlDb, dump: path.join(dir, 'bad'), regex: '(' }), { code: 'NUTCH_USAGE' });
});

test('-topN N out [min]: best scores first, min skips low scores', async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t);
  const crawlDb = await fixtureDb(ctx, dir);
  await readdb(ctx, { crawlDb, topN: 2, topNOut: path.join(dir, 'top') });
  assert.equal(fs.readFileSync(path.join(dir, 'top', 'part-r-00000'), 'utf8'), '2.0\thttp://a.example/2\n1.0\thttp://a.example/1\n');
  const c = await readdb(ctx, { crawlDb, topN: 10, topNOut: path.join(dir, 'top2'), min: 0.5 });
  assert.equal(c.topN, 3);
});

test('a missing CrawlDb is a clear error', async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t);
  await assert.rejects(readdb(ctx, { crawlDb: path.join(dir, 'none'), stats: true }), { code: 'NUTCH_STORAGE_NOT_FOUND' });
});

test('a damaged CrawlDb is a clear error', sqliteOnly('damages the CrawlDb\'s SQLite file'), async (t) => {
  const dir = tempDir(t);
  const ctx = stageContext(t);
  fs.mkdirSync(path.join(dir, 'bad', 'current'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'bad', 'current', 'part-00000'), 'garbage'.repeat(1000));
  await assert.rejects(readdb(ctx, { crawlDb: path.join(dir, 'bad'), stats: true }), { code: 'NUTCH_STORAGE_CORRUPT' });
});

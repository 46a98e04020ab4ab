import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { inject } from '../../core/crawl/inject/inject.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { logged } from '../helpers/context.js';
import { collect } from '../storage/storage-helpers.js';
import { doublingScoring, fragmentNormalizer, rejectFilter, stageContext } from '../storage/stage-context.js';
import { createCrawlDatum } from '../../core/model/crawl-datum.js';
import { openStorageEngine } from '../../core/storage/open-storage.js';
import { assertUnlocked, storesAreFiles } from '../helpers/test-storage.js';

test('seed lines: comments, blanks, tab metadata with the reserved keys, other keys kept', async (t) => {
  const dir = tempDir(t);
  writeFile(path.join(dir, 'urls', 'seed.txt'), [
    '# a comment',
    '',
    'http://a.example/',
    'http://b.example/\tnutch.score=2.5\tnutch.fetchInterval=3600\tuserType=open_source',
    'http://c.example/\tnutch.fetchInterval.fixed=86400',
    '   http://d.example/   ',
    '',
  ].join('\n'));
  const ctx = stageContext(t, { 'db.fetch.interval.default': 1000 });
  const before = Date.now();
  const counters = await inject(ctx, { crawlDb: path.join(dir, 'crawldb'), urlDir: path.join(dir, 'urls') });
  assert.deepEqual(
    { injected: counters.urls_injected, unique: counters.urls_injected_unique, merged: counters.urls_merged, filtered: counters.urls_filtered, malformed: counters.urls_malformed },
    { injected: 4, unique: 4, merged: 0, filtered: 0, malformed: 0 },
  );
  const db = await ctx.storage.openCrawlDb(path.join(dir, 'crawldb'));
  const recs = new Map((await collect(db.scan())).map((r) => [r.url, r.value]));
  assert.deepEqual([...recs.keys()], ['http://a.example/', 'http://b.example/', 'http://c.example/', 'http://d.example/']);
  const a = recs.get('http://a.example/')!;
  assert.equal(a.status, 1, 'db_unfetched');
  assert.equal(a.score, 1);
  assert.equal(a.fetchInterval, 1000);
  assert.ok(a.fetchTime >= before && a.fetchTime <= Date.now());
  const b = recs.get('http://b.example/')!;
  assert.deepEqual([b.score, b.fetchInterval, b.metaData], [2.5, 3600, { userType: ['open_source'] }]);
  const c = recs.get('http://c.example/')!;
  assert.deepEqual([c.fetchInterval, c.metaData], [86400, { fixedInterval: ['86400'] }]);
  await db.close();
});

test('every bad seed line is counted and logged with file:line; the rest is injected', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'seeds.txt');
  const huge = 'http://huge.example/' + 'x'.repeat(1024 * 1024 + 10);
  const longUrl = 'http://long.example/' + 'y'.repeat(5000);
  fs.writeFileSync(file, Buffer.concat([
    Buffer.from('\ufeffhttp://ok1.example/\n'),    // 1 (with a byte order mark)
    Buffer.from('not a url at all\n'),              // 2 malformed
    Buffer.from('http//missing-colon.example\n'),   // 3 malformed
    Buffer.from('http://ok2.example/\tnutch.score=abc\tnutch.fetchInterval=1.5\tnovalue\n'), // 4 bad metadata x3
    Buffer.from(huge + '\n'),                       // 5 too long line
    Buffer.from([0x68, 0x74, 0xff, 0xfe, 0x00, 0x01, 0x0a]), // 6 binary junk
    Buffer.from(longUrl + '\n'),                    // 7 URL over db.max.outlink.length
    Buffer.from('http://ok3.example/\r\n'),         // 8 CRLF
    Buffer.from('http://ok4.example/'),             // 9 no final newline
  ]));
  const seen: string[] = [];
  const ctx = stageContext(t, {}, [fragmentNormalizer(seen)]);
  const counters = await inject(ctx, { crawlDb: path.join(dir, 'crawldb'), urlDir: file });
  assert.equal(counters.urls_injected, 4);
  assert.equal(counters.urls_malformed, 3);
  assert.equal(counters.urls_too_long, 2);
  assert.equal(counters.metadata_invalid, 3);
  const warns = logged(ctx, 'warn').join('\n');
  const errors = logged(ctx, 'error').join('\n');
  for (const n of [2, 3, 6]) assert.match(warns, new RegExp(`seeds\\.txt:${n}: malformed|seeds\\.txt:${n}: line is not valid`), `line ${n} logged`);
  assert.match(warns, /seeds\.txt:5: line longer than/);
  assert.match(warns, /seeds\.txt:7: URL longer than db\.max\.outlink\.length/);
  assert.match(errors, /seeds\.txt:4: invalid number 'abc' in metadata 'nutch\.score'/);
  assert.match(errors, /seeds\.txt:4: invalid number '1\.5' in metadata 'nutch\.fetchInterval'/);
  assert.match(errors, /seeds\.txt:4: metadata 'novalue' is not key=value/);
  assert.ok(!seen.some((u) => u.startsWith('http://long.example/')), 'an over-long URL never reaches a normaliser');
  const db = await ctx.storage.openCrawlDb(path.join(dir, 'crawldb'));
  assert.deepEqual((await collect(db.scan())).map((r) => r.url), ['http://ok1.example/', 'http://ok2.example/', 'http://ok3.example/', 'http://ok4.example/']);
  assert.equal((await db.get('http://ok2.example/'))!.score, 1, 'bad score ignored');
  await db.close();
});

test('scope inject: normalised then filtered; -noNormalize / -noFilter skip them; injectedScore applied', async (t) => {
  const dir = tempDir(t);
  const seeds = writeFile(path.join(dir, 'seeds.txt'), 'http://a.example/#frag\nhttp://a.example/reject\nhttp://b.example/\n');
  const ctx = stageContext(t, {}, [fragmentNormalizer(), rejectFilter, doublingScoring]);
  let c = await inject(ctx, { crawlDb: path.join(dir, 'db1'), urlDir: seeds });
  assert.deepEqual([c.urls_injected, c.urls_filtered, c.urls_injected_unique], [2, 1, 2]);
  let db = await ctx.storage.openCrawlDb(path.join(dir, 'db1'));
  assert.deepEqual((await collect(db.scan())).map((r) => [r.url, r.value.score]), [['http://a.example/', 2], ['http://b.example/', 2]]);
  await db.close();
  c = await inject(ctx, { crawlDb: path.join(dir, 'db2'), urlDir: seeds, noFilter: true, noNormalize: true });
  assert.deepEqual([c.urls_injected, c.urls_filtered], [3, 0]);
  db = await ctx.storage.openCrawlDb(path.join(dir, 'db2'));
  assert.equal(await db.count(), 3);
  await db.close();
});

async function seedExisting(ctx: ReturnType<typeof stageContext>, crawlDb: string) {
  const db = await ctx.storage.openCrawlDb(crawlDb);
  const up = await db.beginUpdate();
  await up.put([
    { url: 'http://old.example/', value: createCrawlDatum({ status: 2, score: 5, fetchInterval: 777, fetchTime: 1, metaData: { keep: ['me'], k: ['old'] } }) },
    { url: 'http://gone.example/', value: createCrawlDatum({ status: 3, fetchTime: 1 }) },
  ]);
  await up.commit();
  await db.close();
}

test('existing records: kept by default, replaced with -overwrite, updated with -update (as NUTCH-1405)', async (t) => {
  const dir = tempDir(t);
  const seeds = writeFile(path.join(dir, 'seeds.txt'), 'http://old.example/\tnutch.score=9\tk=new\nhttp://new.example/\n');
  const ctx = stageContext(t, { 'db.fetch.interval.default': 1000 });
  for (const mode of ['keep', 'overwrite', 'update'] as const) {
    const crawlDb = path.join(dir, mode);
    await seedExisting(ctx, crawlDb);
    const c = await inject(ctx, { crawlDb, urlDir: seeds, overwrite: mode === 'overwrite', update: mode === 'update' });
    assert.deepEqual([c.urls_injected, c.urls_injected_unique, c.urls_merged], [2, 2, 1], mode);
    const db = await ctx.storage.openCrawlDb(crawlDb);
    const old = (await db.get('http://old.example/'))!;
    if (mode === 'keep') assert.deepEqual([old.status, old.score, old.fetchInterval, old.metaData], [2, 5, 777, { keep: ['me'], k: ['old'] }]);
    if (mode === 'overwrite') assert.deepEqual([old.status, old.score, old.fetchInterval, old.metaData], [1, 9, 1000, { k: ['new'] }]);
    if (mode === 'update') assert.deepEqual([old.status, old.score, old.fetchInterval, old.metaData], [2, 9, 777, { keep: ['me'], k: ['new'] }]);
    assert.equal(await db.count(), 3);
    await db.close();
  }
});

test('db.update.purge.404 removes gone records; -filterNormalizeAll filters existing URLs', async (t) => {
  const dir = tempDir(t);
  const seeds = writeFile(path.join(dir, 'seeds.txt'), 'http://new.example/\n');
  const crawlDb = path.join(dir, 'crawldb');
  const ctx = stageContext(t, { 'db.update.purge.404': true }, [rejectFilter]);
  await seedExisting(ctx, crawlDb);
  const db0 = await ctx.storage.openCrawlDb(crawlDb);
  const up = await db0.beginUpdate();
  await up.put([{ url: 'http://reject.example/', value: createCrawlDatum({ status: 2 }) }]);
  await up.commit();
  await db0.close();
  const c = await inject(ctx, { crawlDb, urlDir: seeds, filterNormalizeAll: true });
  assert.equal(c.urls_purged_404, 1);
  assert.equal(c.urls_purged_filter, 1);
  const db = await ctx.storage.openCrawlDb(crawlDb);
  assert.deepEqual((await collect(db.scan())).map((r) => r.url), ['http://new.example/', 'http://old.example/']);
  await db.close();
});

test('duplicates across batches count once as unique; the last line wins', async (t) => {
  const dir = tempDir(t);
  const seeds = writeFile(path.join(dir, 'seeds.txt'), 'http://a/\tnutch.score=1\nhttp://b/\nhttp://c/\nhttp://a/\tnutch.score=3\nhttp://a/\tnutch.score=4\n');
  const ctx = stageContext(t, { 'storage.batch.size': 2 });
  const c = await inject(ctx, { crawlDb: path.join(dir, 'db'), urlDir: seeds });
  assert.deepEqual([c.urls_injected, c.urls_injected_unique, c.urls_merged], [5, 3, 0]);
  const db = await ctx.storage.openCrawlDb(path.join(dir, 'db'));
  assert.equal((await db.get('http://a/'))!.score, 4);
  await db.close();
});

test('a directory of seed files (hidden and _ files skipped); no seeds is a clear error', async (t) => {
  const dir = tempDir(t);
  writeFile(path.join(dir, 'urls', 'a.txt'), 'http://a/\n');
  writeFile(path.join(dir, 'urls', 'b.txt'), 'http://b/\n');
  writeFile(path.join(dir, 'urls', '.hidden'), 'http://hidden/\n');
  writeFile(path.join(dir, 'urls', '_SUCCESS'), '');
  const ctx = stageContext(t);
  const c = await inject(ctx, { crawlDb: path.join(dir, 'db'), urlDir: path.join(dir, 'urls') });
  assert.equal(c.urls_injected, 2);
  fs.mkdirSync(path.join(dir, 'empty'));
  await assert.rejects(inject(ctx, { crawlDb: path.join(dir, 'db'), urlDir: path.join(dir, 'empty') }), { code: 'NUTCH_INJECT_NO_SEEDS' });
  await assert.rejects(inject(ctx, { crawlDb: path.join(dir, 'db'), urlDir: path.join(dir, 'missing') }), { code: 'NUTCH_INJECT_NO_SEEDS' });
});

test('a locked CrawlDb is refused and left untouched; -force takes it', async (t) => {
  const dir = tempDir(t);
  const crawlDb = path.join(dir, 'db');
  const seeds = writeFile(path.join(dir, 'seeds.txt'), 'http://a/\n');
  const ctx = stageContext(t);
  const db = await ctx.storage.openCrawlDb(crawlDb);
  const holder = await db.beginUpdate();
  await assert.rejects(inject(ctx, { crawlDb, urlDir: seeds }), { code: 'NUTCH_STORAGE_LOCKED' });
  await holder.abort();
  assert.equal(await db.count(), 0);
  // a holder still alive elsewhere: a lock file from another host, or (PostgreSQL) a session of another connection
  const otherEngine = storesAreFiles() ? null : openStorageEngine(ctx.conf, ctx.log);
  t.after(() => otherEngine?.close());
  const other = otherEngine ? await (await otherEngine.openCrawlDb(crawlDb)).beginUpdate() : null;
  if (storesAreFiles()) fs.writeFileSync(path.join(crawlDb, '.locked'), JSON.stringify({ pid: 1, host: 'elsewhere', started: 'x' }));
  await assert.rejects(inject(ctx, { crawlDb, urlDir: seeds }), { code: 'NUTCH_STORAGE_LOCKED' });
  const c = await inject(ctx, { crawlDb, urlDir: seeds, force: true });
  if (other) await assert.rejects(other.commit(), { code: 'NUTCH_STORAGE_CONNECTION_LOST' }, 'the forced-out session is over');
  assert.equal(c.urls_injected, 1);
  assert.equal(await db.count(), 1);
  await db.close();
});

test('an abort (first SIGINT) stops reading and commits the seeds read so far', async (t) => {
  const dir = tempDir(t);
  const seeds = writeFile(path.join(dir, 'seeds.txt'), Array.from({ length: 50 }, (_, i) => `http://a.example/${i}`).join('\n') + '\n');
  const ctx = stageContext(t, { 'storage.batch.size': 10 });
  const ac = new AbortController();
  const c = await inject(ctx, { crawlDb: path.join(dir, 'db'), urlDir: seeds }, { signal: ac.signal, onProgress: (e) => { if (e.type === 'progress') ac.abort(); } });
  assert.equal(c.stopped, 1);
  assert.equal(c.urls_injected, 10);
  const db = await ctx.storage.openCrawlDb(path.join(dir, 'db'));
  assert.equal(await db.count(), 10);
  await db.close();
  await assertUnlocked(ctx, path.join(dir, 'db'));
});

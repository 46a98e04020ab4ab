import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { collect, datum, engine, tempDir, url } from './storage-helpers.js';

test('CrawlDb round-trips every CrawlDatum field, signature bytes and metadata included', async () => {
  const dir = path.join(tempDir(), 'crawldb');
  const db = await engine().openCrawlDb(dir);
  assert.equal(await db.exists?.(), false);
  const d = datum(1, {
    status: 2, retries: 3, fetchInterval: 1234.5, score: 0.25, modifiedTime: 42,
    signature: new Uint8Array([0, 255, 7, 128]), metaData: { _ngt_: ['17'], 'k v': ['a', 'b'] },
  });
  const up = await db.beginUpdate();
  await up.put([{ url: 'http://a.example/', value: d }]);
  assert.deepEqual(await up.get('http://a.example/'), d, 'a session reads its own writes');
  await up.commit();
  const got = await db.get('http://a.example/');
  assert.deepEqual(got, d);
  assert.ok(got!.signature instanceof Uint8Array);
  assert.ok(fs.existsSync(path.join(dir, 'current', 'part-00000')), 'Nutch layout: current/part-00000');
  assert.ok(!fs.existsSync(path.join(dir, '.locked')), 'lock released on commit');
  await db.close();
});

test('scan is in URL order, paged, bounded, and honours fromUrl', async () => {
  const dir = tempDir();
  const db = await engine([], 7).openCrawlDb(dir);
  const up = await db.beginUpdate();
  const recs = Array.from({ length: 1234 }, (_, i) => ({ url: url(i), value: datum(i) }));
  await up.put(recs);
  await up.commit();
  const all = await collect(db.scan());
  assert.equal(all.length, 1234);
  const sorted = recs.map((r) => r.url).sort();
  assert.deepEqual(all.map((r) => r.url), sorted);
  const from = sorted[600];
  const tail = await collect(db.scan({ fromUrl: from, batchSize: 50 }));
  assert.deepEqual(tail.map((r) => r.url), sorted.slice(600));
  assert.equal(await db.count(), 1234);
  assert.deepEqual((await db.getMany([sorted[0], 'http://missing/', sorted[5]])).size, 2);
  await db.close();
});

test('readers keep the previous state until commit; abort discards the session', async () => {
  const dir = tempDir();
  const eng = engine();
  const db = await eng.openCrawlDb(dir);
  let up = await db.beginUpdate();
  await up.put([{ url: 'http://a/', value: datum(1) }]);
  await up.commit();

  up = await db.beginUpdate();
  await up.put([{ url: 'http://b/', value: datum(2) }]);
  await up.delete(['http://a/']);
  const other = await eng.openCrawlDb(dir);
  assert.deepEqual((await collect(other.scan())).map((r) => r.url), ['http://a/'], 'uncommitted writes invisible');
  assert.deepEqual((await collect(up.scan())).map((r) => r.url), ['http://b/'], 'session sees its own writes');
  await up.abort();
  assert.deepEqual((await collect(other.scan())).map((r) => r.url), ['http://a/']);

  up = await db.beginUpdate();
  await up.delete(['http://a/']);
  await up.put([{ url: 'http://c/', value: datum(3) }]);
  await up.commit();
  assert.deepEqual((await collect(other.scan())).map((r) => r.url), ['http://c/']);
  await assert.rejects(up.put([]), { code: 'NUTCH_CLOSED' });
  await other.close();
  await db.close();
});

test('a damaged store file is a clear error and is left untouched', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'current', 'part-00000');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const junk = Buffer.from('this is not an sqlite database, just junk '.repeat(200));
  fs.writeFileSync(file, junk);
  await assert.rejects(engine().openCrawlDb(dir), (err: { code: string; message: string }) => {
    assert.equal(err.code, 'NUTCH_STORAGE_CORRUPT');
    assert.match(err.message, /part-00000/);
    return true;
  });
  assert.deepEqual(fs.readFileSync(file), junk);
  assert.ok(!fs.existsSync(path.join(dir, '.locked')));
});

test('puts of many records leave the event loop free (chunked writes)', async () => {
  const db = await engine().openCrawlDb(tempDir());
  const up = await db.beginUpdate();
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  const recs = Array.from({ length: 20_000 }, (_, i) => ({ url: url(i), value: datum(i) }));
  await up.put(recs);
  await up.commit();
  clearInterval(timer);
  assert.ok(ticks > 3, `timers ran during the put (${ticks})`);
  assert.equal(await db.count(), 20_000);
  await db.close();
});

test('update sessions reuse the writer thread of an ended session, on another store too; an aborted one gives its thread back too', async () => {
  const { idleWriterThreads } = await import('../../core/storage/sqlite/writer-worker.js');
  const a = await engine().openCrawlDb(path.join(tempDir(), 'a'));
  const b = await engine().openCrawlDb(path.join(tempDir(), 'b'));
  const first = await a.beginUpdate();
  await first.put([{ url: 'http://a.example/', value: datum(1) }]);
  await first.commit();
  const parked = idleWriterThreads();
  assert.ok(parked >= 1, 'the committed session left its thread waiting');
  const second = await b.beginUpdate();
  assert.equal(idleWriterThreads(), parked - 1, 'the next session took the waiting thread');
  await second.put([{ url: 'http://b.example/', value: datum(2) }]);
  assert.equal(await second.get('http://a.example/'), null, 'the reused thread writes the new store, not the old one');
  await second.abort();
  assert.equal(idleWriterThreads(), parked, 'an aborted session also gives its thread back');
  const third = await a.beginUpdate();
  await third.put([{ url: 'http://a.example/2', value: datum(3) }]);
  await third.commit();
  assert.deepEqual((await collect(a.scan())).map((r) => r.url), ['http://a.example/', 'http://a.example/2']);
  assert.equal(await b.get('http://b.example/'), null, 'the aborted write never reached b');
  await a.close();
  await b.close();
});

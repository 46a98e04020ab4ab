/**
 * The conformance of the keyed stores (CrawlDb, LinkDb, HostDb): round trips, code-point order,
 * update sessions, atomicity (a killed writer too), concurrent readers, the writer lock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHostDatum } from '../../core/model/host-datum.js';
import { compareUrls } from '../../core/storage/url-order.js';
import { type ConformanceHarness, TRICKY_URLS, collect, datum, eventually, exited, spawnHolder } from './conformance-harness.js';

export function storeConformance(H: () => ConformanceHarness): void {
  test('CrawlDb: every CrawlDatum field round-trips; exists() turns true with the first commit', async (t) => {
    const h = await H().make(t);
    const db = await h.engine.openCrawlDb(h.p('crawl/crawldb'));
    t.after(() => db.close());
    assert.equal(await db.exists(), false);
    assert.equal(await db.count(), 0);
    const d = datum(1, { status: 2, retries: 3, fetchInterval: 1234.5, score: 0.25, modifiedTime: 42, signature: new Uint8Array([0, 255, 7, 128]), metaData: { _ngt_: ['17'], 'k v': ['a', 'b'], 'ü': ['ключ'] } });
    const up = await db.beginUpdate();
    await up.put([{ url: 'http://a.example/', value: d }, { url: 'http://b.example/', value: datum(2) }]);
    assert.deepEqual(await up.get('http://a.example/'), d, 'a session reads its own writes');
    assert.equal(await db.exists(), false, 'nothing visible before commit');
    await up.commit();
    assert.equal(await db.exists(), true);
    const got = await db.get('http://a.example/');
    assert.deepEqual(got, d);
    assert.ok(got!.signature instanceof Uint8Array);
    assert.deepEqual([...(await db.getMany(['http://b.example/', 'http://missing/', 'http://a.example/'])).keys()].sort(), ['http://a.example/', 'http://b.example/']);
    assert.equal(await db.get('http://missing/'), null);
  });

  test('order: scans follow code-point order (non-ASCII, %-escapes, characters above U+FFFF), paged and from a URL', async (t) => {
    const h = await H().make(t, { batchSize: 3 });
    const db = await h.engine.openCrawlDb(h.p('crawl/crawldb'));
    t.after(() => db.close());
    const up = await db.beginUpdate();
    const shuffled = [...TRICKY_URLS].reverse();
    await up.put(shuffled.map((url, i) => ({ url, value: datum(i) })));
    const expected = [...TRICKY_URLS].sort(compareUrls);
    assert.notDeepEqual(expected, [...TRICKY_URLS].sort(), 'the set tells code-point order from UTF-16 order');
    assert.deepEqual((await collect(up.scan())).map((r) => r.url), expected, 'session scan order');
    await up.commit();
    assert.deepEqual((await collect(db.scan())).map((r) => r.url), expected);
    assert.deepEqual((await collect(db.scan({ batchSize: 1 }))).map((r) => r.url), expected);
    assert.deepEqual((await collect(db.scan({ fromUrl: expected[7], batchSize: 4 }))).map((r) => r.url), expected.slice(7));
    assert.deepEqual((await collect(db.scan({ fromUrl: 'http://a.example/\uF000' }))).map((r) => r.url), expected.filter((u) => compareUrls(u, 'http://a.example/\uF000') >= 0));
    assert.equal(await db.count(), TRICKY_URLS.length);
  });

  test('sessions: count() and reads see every earlier put (more than one write batch), the last record of a URL wins across puts', async (t) => {
    const h = await H().make(t);
    const db = await h.engine.openCrawlDb(h.p('crawl/crawldb'));
    t.after(() => db.close());
    let up = await db.beginUpdate();
    await up.put([{ url: 'http://old/1', value: datum(1) }, { url: 'http://old/2', value: datum(2) }]);
    await up.commit();
    up = await db.beginUpdate();
    assert.equal(await up.count(), 2);
    // 20,000 records in puts of 1,000: several of any engine's write batches
    const url = (i: number) => `http://h${i % 97}.example/p${i}`;
    for (let i = 0; i < 20_000; i += 1000) {
      await up.put(Array.from({ length: 1000 }, (_, j) => ({ url: url(i + j), value: datum(i + j) })));
    }
    await up.put([{ url: url(5), value: datum(777) }, { url: 'http://old/1', value: datum(888) }]);
    assert.equal(await up.count(), 20_002, 'new URLs counted once, rewritten ones not again');
    assert.equal(await db.count(), 2, 'readers see the previous state');
    const got = await up.getMany([url(0), url(5), url(19_999), 'http://old/1', 'http://old/2']);
    assert.deepEqual([url(0), url(5), url(19_999), 'http://old/1', 'http://old/2'].map((u) => got.get(u)?.fetchTime), [datum(0).fetchTime, datum(777).fetchTime, datum(19_999).fetchTime, datum(888).fetchTime, datum(2).fetchTime]);
    await up.put([{ url: url(6), value: datum(666) }]);
    await up.delete([url(7)]);
    assert.equal(await up.count(), 20_001);
    await up.commit();
    assert.equal(await db.count(), 20_001);
    assert.equal((await db.get(url(6)))!.fetchTime, datum(666).fetchTime);
    assert.equal((await db.get(url(5)))!.fetchTime, datum(777).fetchTime);
    assert.equal(await db.get(url(7)), null);
  });

  test('sessions: puts in URL order (streamed as they come on a server engine), a URL put twice in a row, then out of order; into an empty store and one with rows', async (t) => {
    const h = await H().make(t);
    const db = await h.engine.openCrawlDb(h.p('crawl/crawldb'));
    t.after(() => db.close());
    // 70,000 URLs in code-point order: more than a run, and past a server engine's merge of its staged rows
    const url = (i: number) => `http://in-order.example/${String(i).padStart(6, '0')}`;
    const putInOrder = async (up: Awaited<ReturnType<typeof db.beginUpdate>>, from: number, to: number, step: number, value: (i: number) => number) => {
      for (let i = from; i < to; i += 1000) {
        const batch = [];
        for (let j = i; j < Math.min(to, i + 1000); j += step) batch.push({ url: url(j), value: datum(value(j)) });
        await up.put(batch);
      }
    };
    let up = await db.beginUpdate();
    await putInOrder(up, 0, 70_000, 1, (i) => i);
    await up.put([{ url: url(69_999), value: datum(5) }, { url: url(69_999), value: datum(6) }]);
    assert.equal(await up.count(), 70_000, 'one record per URL');
    await up.put([{ url: url(3), value: datum(33) }, { url: url(2), value: datum(22) }, { url: url(3), value: datum(34) }]);
    assert.equal(await up.count(), 70_000);
    await up.commit();
    assert.equal(await db.count(), 70_000);
    const first = await db.getMany([url(0), url(3), url(40_000), url(69_999)]);
    assert.deepEqual([url(0), url(3), url(40_000), url(69_999)].map((u) => first.get(u)?.fetchTime), [datum(0).fetchTime, datum(34).fetchTime, datum(40_000).fetchTime, datum(6).fetchTime]);
    // every other URL rewritten and 30,000 new ones after them, in order, then one rewritten again out of order
    up = await db.beginUpdate();
    await putInOrder(up, 0, 100_000, 2, (i) => i + 1);
    await up.put([{ url: url(10), value: datum(1010) }]);
    await up.delete([url(20)]);
    await up.put([{ url: url(30), value: datum(3030) }]);
    await up.commit();
    assert.equal(await db.count(), 70_000 + 15_000 - 1);
    const second = await db.getMany([url(1), url(2), url(10), url(20), url(30), url(69_998), url(69_999), url(99_998)]);
    assert.deepEqual([url(1), url(2), url(10), url(20), url(30), url(69_998), url(69_999), url(99_998)].map((u) => second.get(u)?.fetchTime),
      [datum(1).fetchTime, datum(3).fetchTime, datum(1010).fetchTime, undefined, datum(3030).fetchTime, datum(69_999).fetchTime, datum(6).fetchTime, datum(99_999).fetchTime]);
    const urls = (await collect(db.scan())).map((r) => r.url);
    assert.equal(urls.length, 84_999);
    assert.ok(urls.every((u, i) => i === 0 || compareUrls(urls[i - 1]!, u) < 0), 'one record per URL, in order');
  });

  test('scans: a scan left before its end frees what it held; the store reads and closes normally after it', async (t) => {
    const h = await H().make(t);
    const db = await h.engine.openCrawlDb(h.p('crawl/crawldb'));
    const up = await db.beginUpdate();
    await up.put(Array.from({ length: 5000 }, (_, i) => ({ url: `http://early.example/${String(i).padStart(5, '0')}`, value: datum(i) })));
    await up.commit();
    for (let round = 0; round < 12; round++) {
      let n = 0;
      for await (const _ of db.scan()) if (++n === 3) break;
      assert.equal(n, 3);
    }
    const unfinished = db.scan()[Symbol.asyncIterator]();
    assert.equal((await unfinished.next()).done, false);
    assert.equal((await collect(db.scan())).length, 5000);
    assert.equal(await db.count(), 5000);
    await db.close(); // with a scan never finished
  });

  test('atomicity: abort() and a failed session leave the previous state; a used-up session refuses calls', async (t) => {
    const h = await H().make(t);
    const db = await h.engine.openCrawlDb(h.p('crawl/crawldb'));
    t.after(() => db.close());
    let up = await db.beginUpdate();
    await up.put([{ url: 'http://a/', value: datum(1) }, { url: 'http://b/', value: datum(2) }]);
    await up.commit();
    up = await db.beginUpdate();
    await up.put([{ url: 'http://c/', value: datum(3) }, { url: 'http://a/', value: datum(99) }]);
    await up.delete(['http://b/']);
    assert.deepEqual((await collect(up.scan())).map((r) => r.url), ['http://a/', 'http://c/']);
    assert.equal((await up.get('http://a/'))!.fetchTime, datum(99).fetchTime);
    await up.abort();
    assert.deepEqual((await collect(db.scan())).map((r) => [r.url, r.value.fetchTime]), [['http://a/', datum(1).fetchTime], ['http://b/', datum(2).fetchTime]]);
    await assert.rejects(up.put([]), { code: 'NUTCH_CLOSED' });
    // the same URL twice in one put: the last one wins, as an upsert
    up = await db.beginUpdate();
    await up.put([{ url: 'http://d/', value: datum(4) }, { url: 'http://d/', value: datum(5) }]);
    await up.delete(['http://a/']);
    await up.commit();
    assert.deepEqual((await collect(db.scan())).map((r) => [r.url, r.value.fetchTime]), [['http://b/', datum(2).fetchTime], ['http://d/', datum(5).fetchTime]]);
    await assert.rejects(up.commit(), { code: 'NUTCH_CLOSED' });
  });

  test('atomicity: a writer process killed mid-session leaves the previous state, and its lock goes away', async (t) => {
    const h = await H().make(t);
    const db = await h.engine.openCrawlDb(h.p('crawl/crawldb'));
    t.after(() => db.close());
    const up = await db.beginUpdate();
    await up.put([{ url: 'http://keep.example/0', value: datum(7) }]);
    await up.commit();
    const { child } = await spawnHolder(h, h.p('crawl/crawldb'), 500);
    t.after(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
    await assert.rejects(db.beginUpdate(), { code: 'NUTCH_STORAGE_LOCKED' }, 'the live child holds the lock');
    assert.deepEqual((await collect(db.scan())).map((r) => r.url), ['http://keep.example/0'], 'readers see the committed state during the session');
    child.kill('SIGKILL');
    await exited(child);
    const again = await eventually(() => db.beginUpdate(), 'NUTCH_STORAGE_LOCKED');
    assert.deepEqual((await collect(again.scan())).map((r) => r.url), ['http://keep.example/0'], 'nothing of the killed session survived');
    await again.abort();
    assert.equal(await db.count(), 1);
    assert.equal((await db.get('http://keep.example/0'))!.fetchTime, datum(7).fetchTime);
  });

  test('concurrent readers: another engine reads the previous state while a session writes, then the new one', async (t) => {
    const h = await H().make(t, { batchSize: 50 });
    const db = await h.engine.openCrawlDb(h.p('crawl/crawldb'));
    const other = h.another();
    const reader = await other.openCrawlDb(h.p('crawl/crawldb'));
    t.after(async () => { await reader.close(); await db.close(); await other.close(); });
    let up = await db.beginUpdate();
    await up.put(Array.from({ length: 300 }, (_, i) => ({ url: `http://old.example/${String(i).padStart(4, '0')}`, value: datum(i) })));
    await up.commit();
    up = await db.beginUpdate();
    const scan = reader.scan({ batchSize: 40 })[Symbol.asyncIterator]();
    const seen: string[] = [];
    for (let i = 0; i < 300; i++) {
      if (i % 50 === 0) await up.put(Array.from({ length: 50 }, (_, j) => ({ url: `http://new.example/${i + j}`, value: datum(i + j) })));
      if (i === 100) await up.delete(['http://old.example/0250']);
      const next = await scan.next();
      assert.equal(next.done, false);
      seen.push(next.value.url);
    }
    assert.equal((await scan.next()).done, true);
    assert.ok(seen.every((u) => u.startsWith('http://old.example/')), 'no uncommitted row seen');
    assert.equal(seen.length, 300);
    assert.equal(await reader.count(), 300);
    await up.commit();
    assert.equal(await reader.count(), 599);
    assert.equal(await reader.get('http://old.example/0250'), null);
  });

  test('writer lock: a second writer is refused naming the holder; released on commit and abort', async (t) => {
    const h = await H().make(t);
    const db = await h.engine.openCrawlDb(h.p('crawl/crawldb'));
    const other = h.another();
    const second = await other.openCrawlDb(h.p('crawl/crawldb'));
    t.after(async () => { await second.close(); await db.close(); await other.close(); });
    const first = await db.beginUpdate();
    await assert.rejects(second.beginUpdate(), (err: { code: string; message: string }) => {
      assert.equal(err.code, 'NUTCH_STORAGE_LOCKED');
      assert.match(err.message, new RegExp(`\\b${process.pid}\\b`), 'names the holder process');
      assert.match(err.message, /-force/);
      return true;
    });
    await first.put([{ url: 'http://a/', value: datum(1) }]);
    await first.commit();
    const third = await second.beginUpdate();
    await third.abort();
    const fourth = await db.beginUpdate();
    await fourth.commit();
    // the LinkDb has its own lock
    const linkdb = await h.engine.openLinkDb(h.p('crawl/linkdb'));
    t.after(() => linkdb.close());
    const l1 = await linkdb.beginUpdate();
    const lockedCrawlDb = await db.beginUpdate();
    await assert.rejects((await other.openLinkDb(h.p('crawl/linkdb'))).beginUpdate(), { code: 'NUTCH_STORAGE_LOCKED' });
    await lockedCrawlDb.abort();
    await l1.abort();
  });

  test('writer lock: force ends a live holder\'s session, whose writes are lost, and takes the lock', async (t) => {
    if (!H().forceEndsLiveHolder) return t.skip('the embedded engine forces a lock file only (tests/storage/lock.test.ts)');
    const warnings: string[] = [];
    const h = await H().make(t, { warn: (m) => warnings.push(m) });
    const db = await h.engine.openCrawlDb(h.p('crawl/crawldb'));
    t.after(() => db.close());
    const { child } = await spawnHolder(h, h.p('crawl/crawldb'), 10);
    t.after(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
    await assert.rejects(db.beginUpdate(), { code: 'NUTCH_STORAGE_LOCKED' });
    const up = await db.beginUpdate({ force: true });
    assert.match(warnings.join('\n'), /Forcing lock/);
    await up.put([{ url: 'http://forced/', value: datum(1) }]);
    await up.commit();
    child.stdin.write('commit\n');
    await exited(child);
    assert.notEqual(child.exitCode, 0, 'the forced-out holder cannot commit');
    assert.deepEqual((await collect(db.scan())).map((r) => r.url), ['http://forced/']);
  });

  test('LinkDb: inlinks round-trip, sessions atomic, scans in URL order', async (t) => {
    const h = await H().make(t);
    const linkdb = await h.engine.openLinkDb(h.p('crawl/linkdb'));
    t.after(() => linkdb.close());
    assert.equal(await linkdb.exists(), false);
    const inl = { inlinks: [{ fromUrl: 'http://x/', anchor: 'x ✓' }, { fromUrl: 'http://y/', anchor: '' }] };
    const up = await linkdb.beginUpdate();
    await up.put([{ url: 'http://t/\u{1F600}', value: inl }, { url: 'http://t/\uFF01', value: { inlinks: [] } }]);
    assert.deepEqual(await up.get('http://t/\u{1F600}'), inl);
    assert.equal(await linkdb.get('http://t/\u{1F600}'), null);
    await up.commit();
    assert.deepEqual(await linkdb.get('http://t/\u{1F600}'), inl);
    assert.deepEqual((await collect(linkdb.scan())).map((r) => r.url), ['http://t/\uFF01', 'http://t/\u{1F600}']);
    assert.equal((await linkdb.getMany(['http://t/\u{1F600}', 'http://none/'])).size, 1);
    const up2 = await linkdb.beginUpdate();
    await up2.delete(['http://t/\uFF01']);
    await up2.abort();
    assert.equal(await linkdb.count(), 2);
  });

  test('HostDb: every HostDatum field round-trips, sessions atomic with their own lock, scans in host-name order', async (t) => {
    const h = await H().make(t, { batchSize: 2 });
    const hostdb = await h.engine.openHostDb(h.p('crawl/hostdb'));
    t.after(() => hostdb.close());
    assert.equal(await hostdb.exists(), false);
    assert.equal(await hostdb.count(), 0);
    const full = createHostDatum({
      score: 0.75, lastCheck: 1_700_000_123_456, homepageUrl: 'https://bücher.example/start', dnsFailures: 2, connectionFailures: 3,
      unfetched: 4, fetched: 5, notModified: 6, redirTemp: 7, redirPerm: 8, gone: 9,
      metaData: { 'avg._rs_': 12.5, 'pct95._rs_': 40, 'Content-Type.text/html': 5, note: 'ключ' },
    });
    const hosts = ['b.example', 'a.example', 'xn--bcher-kva.example', 'bücher.example', '127.0.0.1', 'a.example.com', '\u65e5\u672c.example'];
    const up = await hostdb.beginUpdate();
    await up.put(hosts.map((host, i) => ({ host, datum: host === 'bücher.example' ? full : createHostDatum({ fetched: i }) })));
    assert.deepEqual(await up.get('bücher.example'), full, 'a session reads its own writes');
    assert.equal(await hostdb.get('bücher.example'), null, 'nothing visible before commit');
    assert.equal(await hostdb.exists(), false);
    // the HostDb's lock is its own: the CrawlDb next to it stays writable
    const crawlDb = await h.engine.openCrawlDb(h.p('crawl/crawldb'));
    t.after(() => crawlDb.close());
    const cup = await crawlDb.beginUpdate();
    await cup.abort();
    const other = await h.another().openHostDb(h.p('crawl/hostdb'));
    t.after(() => other.close());
    await assert.rejects(other.beginUpdate(), { code: 'NUTCH_STORAGE_LOCKED' });
    await up.commit();
    assert.equal(await hostdb.exists(), true);
    assert.deepEqual(await hostdb.get('bücher.example'), full);
    assert.deepEqual(await other.get('bücher.example'), full, 'another process reads what was committed');
    assert.deepEqual((await collect(hostdb.scan())).map((r) => r.host), [...hosts].sort(compareUrls));
    assert.deepEqual((await collect(hostdb.scan({ batchSize: 1 }))).map((r) => r.host), [...hosts].sort(compareUrls));
    assert.deepEqual([...(await hostdb.getMany(['a.example', 'missing.example', 'b.example'])).keys()].sort(), ['a.example', 'b.example']);
    assert.equal(await hostdb.count(), hosts.length);
    // an aborted session changes nothing; a committed delete removes the host
    const up2 = await other.beginUpdate();
    await up2.delete(['a.example']);
    await up2.put([{ host: 'new.example', datum: createHostDatum() }]);
    assert.equal(await up2.get('a.example'), null);
    await up2.abort();
    assert.equal(await hostdb.count(), hosts.length);
    const up3 = await hostdb.beginUpdate();
    await up3.delete(['a.example']);
    // a scan inside the session sees the session's state, and puts during the scan do not upset it
    const seen: string[] = [];
    for await (const r of up3.scan({ batchSize: 2 })) {
      seen.push(r.host);
      await up3.put([{ host: r.host, datum: { ...r.datum, score: 1 } }]);
    }
    assert.deepEqual(seen, hosts.filter((x) => x !== 'a.example').sort(compareUrls));
    await up3.commit();
    assert.equal(await hostdb.get('a.example'), null);
    assert.ok((await collect(hostdb.scan())).every((r) => r.datum.score === 1));
  });
}

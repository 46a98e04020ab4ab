/**
 * The storage conformance suite: what core/storage/interfaces.ts promises, checked on an engine.
 * Every engine's test file calls describeStorageConformance() with a harness that makes a fresh,
 * isolated engine per test (a temp dir for SQLite, a schema of its own for PostgreSQL).
 */
import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { createContent } from '../../core/model/content.js';
import { createCrawlDatum, type CrawlDatum } from '../../core/model/crawl-datum.js';
import { createHostDatum } from '../../core/model/host-datum.js';
import type { StorageEngine } from '../../core/storage/interfaces.js';
import { SEGMENT_NAME } from '../../core/storage/segment-names.js';
import { compareUrls } from '../../core/storage/url-order.js';
import { projectRoot } from '../helpers/temp-dir.js';

export interface EngineHandle {
  engine: StorageEngine;
  /** Working directory relative store paths are taken from. */
  cwd: string;
  /** storage.url that opens the same stores in another process ('' = embedded). */
  storageUrl: string;
  /** A store path under cwd, as the engine is given it (absolute for the embedded engine, which has no cwd). */
  p(rel: string): string;
  /** Another engine on the same stores, as a second process would have. */
  another(opts?: { warn?: (msg: string) => void }): StorageEngine;
}

export interface ConformanceHarness {
  /** A fresh engine on fresh, empty stores; closed after the test. */
  make(t: TestContext, opts?: { batchSize?: number; warn?: (msg: string) => void }): Promise<EngineHandle>;
  /** Records the rows each storage round trip returned, until stop() (bounded-memory checks). */
  trackRows(): { rows: number[]; stop(): void };
  /** `force` ends a live holder's session (PostgreSQL) — the embedded engine only forces a lock file (tests/storage/lock.test.ts). */
  forceEndsLiveHolder: boolean;
}

export function datum(i: number, extra: Partial<CrawlDatum> = {}): CrawlDatum {
  return createCrawlDatum({ status: 1, fetchTime: 1_700_000_000_000 + i, score: i / 10, ...extra });
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** URLs whose code-point order differs from JavaScript's `<`, with %-escapes and non-ASCII hosts. */
export const TRICKY_URLS = [
  'http://a.example/',
  'http://a.example/%41',
  'http://a.example/%7e',
  'http://a.example/%7E',
  'http://a.example/~',
  'http://a.example/Z',
  'http://a.example/a b',
  'http://a.example/é',
  'http://a.example/ß',
  'http://a.example/\u00ff',
  'http://a.example/\u0100',
  'http://a.example/日本',
  'http://a.example/\uE000',
  'http://a.example/\uFF01',
  'http://a.example/\u{1F600}',
  'http://a.example/\u{10000}',
  'http://b.example',
  'http://xn--bcher-kva.example/',
  'http://bücher.example/',
  'https://a.example/',
];

function spawnHolder(h: EngineHandle, crawlDb: string, records: number): Promise<{ child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string> }> {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(projectRoot, 'tests', 'storage', 'conformance-child.ts'), h.storageUrl, h.cwd, crawlDb, String(records)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return lines.next().then((first) => {
    if (first.done || first.value !== 'ready') throw new Error(`child did not get ready: ${stderr}`);
    return { child, lines };
  });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('close', () => resolve()));
}

/** Retries fn while it fails with `code` (a dead holder's lock goes away when the server notices the closed connection). */
async function eventually<T>(fn: () => Promise<T>, code: string): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if ((err as { code?: string }).code !== code || i >= 100) throw err;
      await sleep(50);
    }
  }
}

export function describeStorageConformance(name: string, harness: ConformanceHarness | (() => ConformanceHarness)): void {
  const H = () => (typeof harness === 'function' ? harness() : harness);

  describe(`storage conformance: ${name}`, () => {
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

    test('segments: partitions, completion once every partition finished, partition count stored with the segment', async (t) => {
      const h = await H().make(t);
      const seg = await h.engine.createSegment(h.p('crawl/segments'));
      t.after(() => seg.close());
      assert.match(seg.name, SEGMENT_NAME);
      assert.equal(await seg.partitionCount(), 0, 'no crawl_generate yet');
      assert.equal(await seg.hasPart('crawl_generate'), false);
      const w0 = await seg.openWriter('crawl_generate', 0, { totalPartitions: 3 });
      const w2 = await seg.openWriter('crawl_generate', 2, { totalPartitions: 3 });
      await w0.append([{ url: 'http://a/', value: datum(1) }, { url: 'http://a/2', value: datum(2) }]);
      await w2.append([{ url: 'http://c/', value: datum(3) }]);
      await w0.finish();
      await w2.finish();
      assert.equal(await seg.partitionCount(), 3);
      assert.equal(await seg.isComplete('crawl_generate'), false, 'partition 1 never written');
      const w1 = await seg.openWriter('crawl_generate', 1, { totalPartitions: 3 });
      await w1.append([{ url: 'http://b/', value: datum(4) }]);
      assert.equal(await seg.isComplete('crawl_generate'), false, 'partition 1 not finished');
      await w1.finish();
      for (const w of [w0, w1, w2]) await w.close();
      assert.equal(await seg.isComplete('crawl_generate'), true);
      assert.deepEqual(await seg.partitions('crawl_generate'), [0, 1, 2]);
      assert.deepEqual((await collect(seg.read('crawl_generate'))).map((r) => r.url), ['http://a/', 'http://a/2', 'http://b/', 'http://c/']);
      assert.deepEqual((await collect(seg.read('crawl_generate', { partition: 2 }))).map((r) => r.url), ['http://c/']);
      assert.deepEqual(await seg.storedAmong('crawl_generate', 0, ['http://a/2', 'http://b/', 'http://a/']), new Set(['http://a/', 'http://a/2']));
      assert.deepEqual(await seg.storedAmong('crawl_fetch', 0, ['http://a/']), new Set());

      // later parts follow crawl_generate's partition count
      const reopened = await h.engine.openSegment(seg.path);
      t.after(() => reopened.close());
      assert.equal(await reopened.partitionCount(), 3);
      const c0 = await reopened.openWriter('content', 0);
      const bytes = new Uint8Array([0, 1, 2, 250, 251, 0]);
      await c0.append([{ url: 'http://a/', value: createContent({ url: 'http://a/', content: bytes, contentType: 'text/html' }) }]);
      await c0.finish();
      await c0.close();
      assert.equal(await reopened.hasPart('content'), true);
      assert.equal(await reopened.isComplete('content'), false, '1 of 3 partitions');
      const got = await reopened.get('content', 'http://a/');
      assert.equal(got.length, 1);
      assert.ok(got[0]!.content instanceof Uint8Array);
      assert.deepEqual([...got[0]!.content], [...bytes]);
      // a writer reopened on a partition appends (a resumed fetch), a dropped part is gone
      const again = await reopened.openWriter('content', 0);
      await again.append([{ url: 'http://a/2', value: createContent({ url: 'http://a/2', content: new Uint8Array(3), contentType: 'text/plain' }) }]);
      await again.close();
      assert.deepEqual((await collect(reopened.read('content'))).map((r) => r.url), ['http://a/', 'http://a/2']);
      await reopened.dropPart('content');
      assert.equal(await reopened.hasPart('content'), false);
      assert.deepEqual(await collect(reopened.read('content')), []);
      assert.deepEqual(await reopened.get('content', 'http://a/'), []);
      assert.equal(await reopened.isComplete('crawl_generate'), true, 'other parts untouched');
      assert.deepEqual(await h.engine.listSegments(h.p('crawl/segments')), [seg.path]);
      await assert.rejects(reopened.openWriter('crawl_fetch', -1), { code: 'NUTCH_USAGE' });
    });

    test('segments: records sharing a URL read back in insertion order, large values intact', async (t) => {
      const h = await H().make(t, { batchSize: 7 });
      const seg = await h.engine.createSegment(h.p('crawl/segments'));
      t.after(() => seg.close());
      const w = await seg.openWriter('crawl_parse', 0);
      const recs = Array.from({ length: 1100 }, (_, i) => ({ url: `http://u/${i % 10}`, value: datum(i) }));
      await w.append(recs.slice(0, 600));
      await w.append(recs.slice(600));
      await w.finish();
      await w.close();
      const back = await collect(seg.read('crawl_parse', { batchSize: 64 }));
      assert.deepEqual(back.map((r) => r.value.fetchTime), recs.map((r) => r.value.fetchTime));
      assert.equal((await seg.get('crawl_parse', 'http://u/3')).length, 110);
      assert.equal(await seg.count('crawl_parse'), 1100);
      assert.equal(await seg.count('crawl_parse', 0), 1100);
      assert.equal(await seg.count('crawl_parse', 1), 0);
      assert.equal(await seg.count('content'), 0);
      assert.equal(await seg.isComplete('crawl_parse'), true, 'one partition by default without crawl_generate');
      const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7919) % 251);
      const c = await seg.openWriter('content', 0);
      await c.append([{ url: 'http://big/', value: createContent({ url: 'http://big/', content: big, contentType: 'application/octet-stream' }) }]);
      await c.finish();
      await c.close();
      const [got] = await seg.get('content', 'http://big/');
      assert.equal(Buffer.compare(Buffer.from(got!.content), Buffer.from(big)), 0);
    });

    test('segments: names are unique yyyyMMddHHmmss, also when two engines create at once', async (t) => {
      const h = await H().make(t);
      const other = h.another();
      t.after(() => other.close());
      const made = await Promise.all([
        ...Array.from({ length: 3 }, () => h.engine.createSegment(h.p('crawl/segments'))),
        ...Array.from({ length: 3 }, () => other.createSegment(h.p('crawl/segments'))),
        h.engine.createStagedSegment(h.p('crawl/segments')),
      ]);
      const names = made.map((s) => ('finalName' in s ? (s as { finalName: string }).finalName : s.name));
      assert.equal(new Set(names).size, 7, names.join(' '));
      for (const n of names) assert.match(n, SEGMENT_NAME);
      for (const s of made) await s.close();
      assert.equal((await h.engine.listSegments(h.p('crawl/segments'))).length, 6, 'the staged one is not listed');
      const listed = await h.engine.listSegments(h.p('crawl/segments'));
      assert.deepEqual(listed, [...listed].sort(), 'oldest first');
    });

    test('staged segments: invisible until publish(), discard() and discardStaleStagedSegments() remove them', async (t) => {
      const h = await H().make(t);
      const staged = await h.engine.createStagedSegment(h.p('crawl/segments'));
      const w = await staged.openWriter('crawl_generate', 0, { totalPartitions: 1 });
      await w.append([{ url: 'http://a/', value: datum(1) }]);
      await w.finish();
      await w.close();
      assert.deepEqual(await h.engine.listSegments(h.p('crawl/segments')), []);
      await assert.rejects(h.engine.openSegment(path.join(h.p('crawl/segments'), staged.finalName)), { code: 'NUTCH_STORAGE_NOT_FOUND' });
      const seg = await staged.publish();
      t.after(() => seg.close());
      assert.deepEqual(await h.engine.listSegments(h.p('crawl/segments')), [path.join(h.p('crawl/segments'), staged.finalName)]);
      assert.equal(await seg.isComplete('crawl_generate'), true);
      assert.deepEqual((await collect(seg.read('crawl_generate'))).map((r) => r.url), ['http://a/']);

      const discarded = await h.engine.createStagedSegment(h.p('crawl/segments'));
      await discarded.discard();
      const left = await h.engine.createStagedSegment(h.p('crawl/segments'));
      const lw = await left.openWriter('crawl_generate', 0);
      await lw.append([{ url: 'http://left/', value: datum(2) }]);
      await lw.close();
      assert.deepEqual(await h.engine.discardStaleStagedSegments(h.p('crawl/segments')), [left.finalName]);
      assert.deepEqual(await h.engine.discardStaleStagedSegments(h.p('crawl/segments')), []);
      assert.deepEqual(await h.engine.listSegments(h.p('crawl/segments')), [path.join(h.p('crawl/segments'), staged.finalName)]);
      await assert.rejects(h.engine.openSegment(h.p('crawl/segments/20000101000000')), { code: 'NUTCH_STORAGE_NOT_FOUND' });
    });

    test('segment metadata: empty at first, merged by writeMeta, kept by a staged segment\'s publish() and by reopening', async (t) => {
      const h = await H().make(t);
      const staged = await h.engine.createStagedSegment(h.p('crawl/segments'));
      assert.deepEqual(await staged.readMeta(), {});
      await staged.writeMeta({ 'nutch.crawl.round': 'open', other: 'x' });
      const seg = await staged.publish();
      t.after(() => seg.close());
      assert.deepEqual(await seg.readMeta(), { 'nutch.crawl.round': 'open', other: 'x' });
      await seg.writeMeta({ 'nutch.crawl.round': 'done', 'a "quoted" key': 'ünïcode \\ value' });
      const again = await h.engine.openSegment(seg.path);
      t.after(() => again.close());
      assert.deepEqual(await again.readMeta(), { 'nutch.crawl.round': 'done', other: 'x', 'a "quoted" key': 'ünïcode \\ value' });
      const plain = await h.engine.createSegment(h.p('crawl/segments'));
      t.after(() => plain.close());
      assert.deepEqual(await plain.readMeta(), {}, 'another segment has its own metadata');
    });

    test('fetch partitions: claim, renew, complete, release; an expired lease is taken over and the late writer is fenced off', async (t) => {
      const h = await H().make(t);
      const seg = await h.engine.createSegment(h.p('crawl/segments'));
      t.after(() => seg.close());
      for (let p = 0; p < 3; p++) {
        const w = await seg.openWriter('crawl_generate', p, { totalPartitions: 3 });
        await w.append([{ url: `http://h${p}/`, value: datum(p) }]);
        await w.finish();
        await w.close();
      }
      const q = seg.fetchPartitions();
      const long = { leaseMs: 60_000, maxAttempts: 2 };
      const a = (await q.claim('worker-a', long)).claim!;
      const b = (await q.claim('worker-b', long)).claim!;
      assert.deepEqual([a.partition, a.attempt, b.partition, b.attempt], [0, 1, 1, 1]);
      await q.renew(a, 60_000);
      const st = await q.status();
      assert.deepEqual(st.map((s) => s.state), ['running', 'running', 'pending']);
      assert.equal(st[0]!.worker, 'worker-a');
      assert.ok(st[0]!.leaseExpires! > 0);
      await q.release(b);
      assert.equal((await q.status())[1]!.state, 'pending');
      const fenced = await seg.openWriter('crawl_fetch', 0, { fence: a });
      await fenced.append([{ url: 'http://h0/', value: datum(10) }]);
      await fenced.finish();
      await q.complete(a);
      await fenced.close();
      assert.equal(await q.allSettled(), false);

      // partition 1 claimed with a lease that runs out, then taken over
      const late = (await q.claim('worker-late', { leaseMs: 1, maxAttempts: 2 })).claim!;
      assert.equal(late.partition, 1);
      const lateWriter = await seg.openWriter('crawl_fetch', 1, { fence: late });
      await lateWriter.append([{ url: 'http://h1/', value: datum(11) }]);
      await sleep(20);
      const takeover = await eventually(async () => {
        const c = (await q.claim('worker-new', long)).claim;
        if (!c || c.partition !== 1) throw Object.assign(new Error('not yet'), { code: 'RETRY', claim: c });
        return c;
      }, 'RETRY');
      assert.equal(takeover.attempt, 3, 'partition 1: claimed by b (released), late, and now the takeover');
      await assert.rejects(lateWriter.append([{ url: 'http://h1/late', value: datum(12) }]), { code: 'NUTCH_LEASE_LOST' });
      await assert.rejects(lateWriter.finish(), { code: 'NUTCH_LEASE_LOST' });
      await assert.rejects(q.renew(late, 1000), { code: 'NUTCH_LEASE_LOST' });
      await assert.rejects(q.complete(late), { code: 'NUTCH_LEASE_LOST' });
      await lateWriter.close();
      assert.deepEqual((await collect(seg.read('crawl_fetch', { partition: 1 }))).map((r) => r.url), ['http://h1/'], 'only the batch committed before the takeover');
      assert.deepEqual(await seg.storedAmong('crawl_fetch', 1, ['http://h1/', 'http://h1/late']), new Set(['http://h1/']));
      const w = await seg.openWriter('crawl_fetch', 1, { fence: takeover });
      await w.finish();
      await q.complete(takeover);

      // partition 2 fails after maxAttempts claims without finishing
      const c1 = (await q.claim('w1', { leaseMs: 1, maxAttempts: 2 })).claim!;
      assert.equal(c1.partition, 2);
      await sleep(20);
      const c2 = await eventually(async () => {
        const c = (await q.claim('w2', { leaseMs: 1, maxAttempts: 2 })).claim;
        if (!c) throw Object.assign(new Error('not yet'), { code: 'RETRY' });
        return c;
      }, 'RETRY');
      assert.equal(c2.attempt, 2);
      await sleep(20);
      const last = await eventually(async () => {
        const r = await q.claim('w3', { leaseMs: 1, maxAttempts: 2 });
        if (r.failed.length === 0) throw Object.assign(new Error('not yet'), { code: 'RETRY' });
        return r;
      }, 'RETRY');
      assert.equal(last.claim, null);
      assert.equal(last.failed[0]!.partition, 2);
      assert.match(last.failed[0]!.reason!, /fetcher\.partition\.max\.attempts=2/);
      assert.equal(await q.allSettled(), true);
      assert.deepEqual((await q.status()).map((s) => s.state), ['done', 'done', 'failed']);
      assert.equal(await seg.isComplete('crawl_fetch'), false, 'partition 2 never finished');
    });

    test('fetch partitions: a released partition is claimed with a new attempt, so the releasing worker stays fenced off; releases do not count against maxAttempts', async (t) => {
      const h = await H().make(t);
      const seg = await h.engine.createSegment(h.p('crawl/segments'));
      t.after(() => seg.close());
      const gen = await seg.openWriter('crawl_generate', 0, { totalPartitions: 1 });
      await gen.append([{ url: 'http://h0/a', value: datum(0) }, { url: 'http://h0/b', value: datum(1) }]);
      await gen.finish();
      await gen.close();
      const q = seg.fetchPartitions();
      const opts = { leaseMs: 60_000, maxAttempts: 2 };
      const first = (await q.claim('worker-a', opts)).claim!;
      const oldWriter = await seg.openWriter('crawl_fetch', 0, { fence: first });
      await oldWriter.append([{ url: 'http://h0/a', value: datum(10) }]);
      await q.release(first);
      const second = (await q.claim('worker-b', opts)).claim!;
      assert.equal(second.partition, 0);
      // the released worker's late calls are refused, before and after the new holder opens its writer
      await assert.rejects(oldWriter.append([{ url: 'http://h0/b', value: datum(11) }]), { code: 'NUTCH_LEASE_LOST' });
      assert.notEqual(second.attempt, first.attempt, 'a fencing token is never handed out twice');
      await assert.rejects(q.renew(first, 60_000), { code: 'NUTCH_LEASE_LOST' });
      await assert.rejects(q.complete(first), { code: 'NUTCH_LEASE_LOST' });
      await assert.rejects(q.release(first), { code: 'NUTCH_LEASE_LOST' });
      const newWriter = await seg.openWriter('crawl_fetch', 0, { fence: second });
      await assert.rejects(oldWriter.append([{ url: 'http://h0/b', value: datum(12) }]), { code: 'NUTCH_LEASE_LOST' });
      await assert.rejects(oldWriter.finish(), { code: 'NUTCH_LEASE_LOST' });
      await oldWriter.close();
      const st = (await q.status())[0]!;
      assert.deepEqual([st.state, st.worker, st.attempts], ['running', 'worker-b', second.attempt]);
      // two polite releases and a third claim: still within maxAttempts 2, since releases are not failures
      await newWriter.close();
      await q.release(second);
      const third = (await q.claim('worker-c', opts));
      assert.deepEqual(third.failed, []);
      assert.ok(third.claim && third.claim.attempt > second.attempt);
      const w = await seg.openWriter('crawl_fetch', 0, { fence: third.claim });
      await w.append([{ url: 'http://h0/b', value: datum(13) }]);
      await w.finish();
      await w.close();
      await q.complete(third.claim);
      assert.deepEqual((await collect(seg.read('crawl_fetch'))).map((r) => r.url), ['http://h0/a', 'http://h0/b'], 'the released worker\'s late batches were not stored');
    });

    test('fetch partitions: a partition whose crawl_fetch was finished by a plain fetch counts as done', async (t) => {
      const h = await H().make(t);
      const seg = await h.engine.createSegment(h.p('crawl/segments'));
      t.after(() => seg.close());
      for (let p = 0; p < 2; p++) {
        const w = await seg.openWriter('crawl_generate', p, { totalPartitions: 2 });
        await w.finish();
        await w.close();
      }
      const f = await seg.openWriter('crawl_fetch', 0);
      await f.finish();
      await f.close();
      const q = (await h.engine.openSegment(seg.path)).fetchPartitions();
      assert.deepEqual((await q.status()).map((s) => s.state), ['done', 'pending']);
      const c = (await q.claim(`${os.hostname()}:${process.pid}:x`, { leaseMs: 60_000, maxAttempts: 4 })).claim!;
      assert.equal(c.partition, 1);
      assert.equal((await q.claim('other', { leaseMs: 60_000, maxAttempts: 4 })).claim, null);
    });

    test('bounded memory: scans and segment reads fetch at most a page per round trip', async (t) => {
      const H0 = H();
      const h = await H0.make(t, { batchSize: 100 });
      const db = await h.engine.openCrawlDb(h.p('crawl/crawldb'));
      t.after(() => db.close());
      const up = await db.beginUpdate();
      const n = 5000;
      for (let i = 0; i < n; i += 1000) await up.put(Array.from({ length: 1000 }, (_, j) => ({ url: `http://big.example/${String(i + j).padStart(6, '0')}`, value: datum(i + j) })));
      await up.commit();
      const seg = await h.engine.createSegment(h.p('crawl/segments'));
      t.after(() => seg.close());
      const w = await seg.openWriter('parse_text', 0);
      const text = 'x'.repeat(100_000);
      for (let i = 0; i < 150; i += 25) await w.append(Array.from({ length: 25 }, (_, j) => ({ url: `http://t/${i + j}`, value: { text } })));
      await w.close();

      const tracker = H0.trackRows();
      let count = 0;
      for await (const _ of db.scan()) count++;
      const scanRows = [...tracker.rows];
      tracker.rows.length = 0;
      let texts = 0;
      for await (const _ of seg.read('parse_text', { batchSize: 1000 })) texts++;
      tracker.stop();
      assert.equal(count, n);
      assert.equal(texts, 150);
      assert.ok(scanRows.length >= n / 100, `paged: ${scanRows.length} round trips`);
      assert.ok(Math.max(...scanRows) <= 100, `at most batchSize rows per round trip (max ${Math.max(...scanRows)})`);
      // 100 KB values: after a first page of at most 100 rows, pages are bounded by bytes (~4 MB), not by the 1,000-row batch size
      const pages = tracker.rows.filter((r) => r > 1);
      assert.ok(pages.length >= 2 && pages[0]! <= 100, `first page ${pages[0]} rows`);
      assert.ok(Math.max(...pages.slice(1)) <= 45, `segment read pages bounded by bytes (${pages.join(', ')} rows)`);
    });
  });
}


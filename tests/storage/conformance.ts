/**
 * The storage conformance suite: what core/storage/interfaces.ts promises, checked on an engine.
 * Every engine's test file calls describeStorageConformance() with a harness that makes a fresh,
 * isolated engine per test (a temp dir for SQLite, a schema of its own for PostgreSQL). The tests
 * live by concern: keyed stores, segments, fetch partitions; bounded memory here.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { datum, type ConformanceHarness } from './conformance-harness.js';
import { storeConformance } from './conformance-stores.js';
import { segmentConformance } from './conformance-segments.js';
import { fetchPartitionConformance } from './conformance-fetch-partitions.js';

export { collect, datum, TRICKY_URLS, type ConformanceHarness, type EngineHandle } from './conformance-harness.js';

export function describeStorageConformance(name: string, harness: ConformanceHarness | (() => ConformanceHarness)): void {
  const H = () => (typeof harness === 'function' ? harness() : harness);

  describe(`storage conformance: ${name}`, () => {
    storeConformance(H);
    segmentConformance(H);
    fetchPartitionConformance(H);

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



/**
 * The conformance of segments: partitions and completion, the stored partition count, record order,
 * unique names, staged segments, segment metadata.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createContent } from '../../core/model/content.js';
import { SEGMENT_NAME } from '../../core/storage/segment-names.js';
import { compareUrls } from '../../core/storage/url-order.js';
import { type ConformanceHarness, TRICKY_URLS, collect, datum } from './conformance-harness.js';

export function segmentConformance(H: () => ConformanceHarness): void {
  test('segments: readSorted gives a part in code-point URL order, a URL\'s records in read() order (partition, then insertion)', async (t) => {
    const h = await H().make(t, { batchSize: 7 });
    const seg = await h.engine.createSegment(h.p('crawl/segments'));
    t.after(() => seg.close());
    const writers = [await seg.openWriter('crawl_parse', 0, { totalPartitions: 2 }), await seg.openWriter('crawl_parse', 1, { totalPartitions: 2 })];
    // several records per URL, in both partitions and within one, over several appends
    let n = 0;
    for (let round = 0; round < 3; round++) {
      for (let p = 0; p < 2; p++) {
        const batch = [];
        for (const url of [...TRICKY_URLS].reverse()) if ((url.length + round + p) % 3 !== 0) batch.push({ url, value: datum(n++) });
        batch.push({ url: 'http://same.example/', value: datum(n++) });
        await writers[p]!.append(batch);
      }
    }
    for (const w of writers) { await w.finish(); await w.close(); }
    const read = await collect(seg.read('crawl_parse'));
    const expected = read.map((r, i) => ({ r, i })).sort((a, b) => compareUrls(a.r.url, b.r.url) || a.i - b.i).map(({ r }) => [r.url, r.value.fetchTime]);
    const sorted = await collect(seg.readSorted('crawl_parse'));
    assert.equal(sorted.length, n);
    assert.deepEqual(sorted.map((r) => [r.url, r.value.fetchTime]), expected);
    // left early, then read again whole
    for await (const _ of seg.readSorted('crawl_parse')) break;
    assert.equal((await collect(seg.readSorted('crawl_parse'))).length, n);
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
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createContent } from '../../core/model/content.js';
import { SEGMENT_NAME } from '../../core/storage/sqlite/segment-name.js';
import { collect, datum, engine, tempDir } from './storage-helpers.js';

test('segment parts: part-0000N per partition, _SUCCESS once every partition finished', async () => {
  const segs = tempDir();
  const eng = engine();
  const seg = await eng.createSegment(segs);
  assert.match(seg.name, SEGMENT_NAME);
  const w0 = await seg.openWriter('crawl_generate', 0, { totalPartitions: 2 });
  const w1 = await seg.openWriter('crawl_generate', 1, { totalPartitions: 2 });
  await w0.append([{ url: 'http://a/', value: datum(1) }, { url: 'http://a/2', value: datum(2) }]);
  await w1.append([{ url: 'http://b/', value: datum(3) }]);
  await w0.finish();
  assert.equal(await seg.isComplete('crawl_generate'), false, 'partition 1 still open');
  await w1.finish();
  await w0.close();
  await w1.close();
  assert.equal(await seg.isComplete('crawl_generate'), true);
  assert.ok(fs.existsSync(path.join(seg.path, 'crawl_generate', 'part-00000')));
  assert.ok(fs.existsSync(path.join(seg.path, 'crawl_generate', '_SUCCESS')));
  assert.deepEqual(await seg.partitions('crawl_generate'), [0, 1]);
  assert.deepEqual((await collect(seg.read('crawl_generate'))).map((r) => r.url), ['http://a/', 'http://a/2', 'http://b/']);
  assert.deepEqual((await collect(seg.read('crawl_generate', { partition: 1 }))).map((r) => r.url), ['http://b/']);
  assert.deepEqual(await seg.storedAmong('crawl_generate', 0, ['http://a/2', 'http://b/', 'http://a/']), new Set(['http://a/', 'http://a/2']));
  assert.equal(await seg.partitionCount(), 2);
  assert.equal(await seg.hasPart('content'), false);

  // fetch output defaults to crawl_generate's partition count
  const c0 = await seg.openWriter('content', 0);
  const bytes = new Uint8Array([0, 1, 2, 250, 251]);
  await c0.append([{ url: 'http://a/', value: createContent({ url: 'http://a/', content: bytes, contentType: 'text/html' }) }]);
  await c0.finish();
  assert.equal(await seg.isComplete('content'), false);
  const got = await seg.get('content', 'http://a/');
  assert.equal(got.length, 1);
  assert.ok(got[0].content instanceof Uint8Array);
  assert.deepEqual([...got[0].content], [...bytes]);
  await c0.close();
  await seg.close();
  assert.deepEqual(await eng.listSegments(segs), [seg.path]);
});

test('several records may share a URL; read pages in insertion order', async () => {
  const seg = await engine([], 3).createSegment(tempDir());
  const w = await seg.openWriter('crawl_parse', 0);
  const recs = Array.from({ length: 1100 }, (_, i) => ({ url: `http://u/${i % 10}`, value: datum(i) }));
  await w.append(recs);
  await w.finish();
  await w.close();
  const back = await collect(seg.read('crawl_parse', { batchSize: 64 }));
  assert.equal(back.length, 1100);
  assert.deepEqual(back.map((r) => r.value.fetchTime), recs.map((r) => r.value.fetchTime));
  assert.equal((await seg.get('crawl_parse', 'http://u/3')).length, 110);
  assert.equal(await seg.isComplete('crawl_parse'), true);
  await seg.close();
});

test('segment names are unique yyyyMMddHHmmss even when created in the same second', async () => {
  const segs = tempDir();
  const eng = engine();
  const names = new Set<string>();
  for (let i = 0; i < 3; i++) names.add((await eng.createSegment(segs)).name);
  const staged = await eng.createStagedSegment(segs);
  names.add(staged.finalName);
  assert.equal(names.size, 4);
  for (const n of names) assert.match(n, SEGMENT_NAME);
});

test('a staged segment is invisible until publish(); discard() removes it', async () => {
  const segs = tempDir();
  const eng = engine();
  const staged = await eng.createStagedSegment(segs);
  const w = await staged.openWriter('crawl_generate', 0, { totalPartitions: 1 });
  await w.append([{ url: 'http://a/', value: datum(1) }]);
  await w.finish();
  await w.close();
  assert.deepEqual(await eng.listSegments(segs), []);
  const seg = await staged.publish();
  assert.deepEqual(await eng.listSegments(segs), [path.join(segs, staged.finalName)]);
  assert.equal(await seg.isComplete('crawl_generate'), true);
  assert.deepEqual((await collect(seg.read('crawl_generate'))).map((r) => r.url), ['http://a/']);
  await seg.close();

  const other = await eng.createStagedSegment(segs);
  await other.discard();
  assert.deepEqual(fs.readdirSync(segs), [staged.finalName]);
  await assert.rejects(eng.openSegment(path.join(segs, 'nope')), { code: 'NUTCH_STORAGE_NOT_FOUND' });
});

test('get() on a complete part sees a partition written later through the segment, and nothing after dropPart()', async () => {
  const seg = await engine().createSegment(tempDir());
  const w0 = await seg.openWriter('crawl_parse', 0, { totalPartitions: 1 });
  await w0.append([{ url: 'http://a/', value: datum(1) }]);
  await w0.finish();
  await w0.close();
  assert.equal(await seg.isComplete('crawl_parse'), true);
  assert.equal((await seg.get('crawl_parse', 'http://a/')).length, 1);
  assert.equal((await seg.get('crawl_parse', 'http://b/')).length, 0);
  const w1 = await seg.openWriter('crawl_parse', 1, { totalPartitions: 2 });
  await w1.append([{ url: 'http://b/', value: datum(2) }]);
  await w1.finish();
  await w1.close();
  assert.deepEqual((await seg.get('crawl_parse', 'http://b/')).map((d) => d.score), [0.2], 'the new partition is looked up too');
  await seg.dropPart('crawl_parse');
  assert.deepEqual(await seg.get('crawl_parse', 'http://a/'), [], 'a dropped part has nothing');
  const again = await seg.openWriter('crawl_parse', 0, { totalPartitions: 1 });
  await again.append([{ url: 'http://c/', value: datum(3) }]);
  await again.finish();
  await again.close();
  assert.deepEqual(await seg.get('crawl_parse', 'http://a/'), []);
  assert.equal((await seg.get('crawl_parse', 'http://c/')).length, 1);
  await seg.close();
});

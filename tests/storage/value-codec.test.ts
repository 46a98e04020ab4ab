import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createCrawlDatum, CrawlStatus, type CrawlDatum } from '../../core/model/crawl-datum.js';
import { decodeValue, encodeDatum, encodeValue } from '../../core/storage/value-codec.js';
import { collect, engine, tempDir } from './storage-helpers.js';

const full: CrawlDatum = {
  status: CrawlStatus.STATUS_FETCH_SUCCESS,
  fetchTime: 1_763_900_000_123,
  retries: 3,
  fetchInterval: 2_592_000.5,
  score: 0.0123456789,
  signature: new Uint8Array([0, 1, 2, 255, 128]),
  modifiedTime: -1,
  metaData: { _pst_: ['success(1), lastModified=0'], 'Content-Type': ['text/html', 'x; y'], 'ü ключ': ['värde'] },
};

test('datum codec: every field round-trips, signature and metadata included', () => {
  const bytes = encodeDatum(full);
  assert.equal(bytes[0], 0x01, 'compact layout, not V8');
  const back = decodeValue<CrawlDatum>(bytes);
  assert.deepEqual(back, full);
  assert.ok(back.signature instanceof Uint8Array);
});

test('datum codec: null signature, empty metadata, an empty signature stay distinct', () => {
  const bare = createCrawlDatum({ status: CrawlStatus.STATUS_LINKED, fetchTime: 5 });
  assert.deepEqual(decodeValue(encodeDatum(bare)), bare);
  const emptySig = { ...bare, signature: new Uint8Array(0) };
  assert.deepEqual(decodeValue(encodeDatum(emptySig)), emptySig);
  assert.equal(encodeDatum(bare).length, 40, 'a datum without signature or metadata is 40 bytes');
});

test('datum codec: a value that is not a plain datum is stored through V8 and read back whole', () => {
  const extra = { ...full, extraField: 'kept' } as CrawlDatum;
  const bytes = encodeDatum(extra);
  assert.equal(bytes[0], 0xff);
  assert.deepEqual(decodeValue(bytes), extra);
  const bigStatus = { ...full, status: 300 };
  assert.deepEqual(decodeValue(encodeDatum(bigStatus)), bigStatus);
});

test('datum codec: values written by V8 serialisation (older segments) still decode', () => {
  assert.deepEqual(decodeValue(v8.serialize(full)), full);
  assert.deepEqual(decodeValue(encodeValue(full)), full);
});

test('segment datum parts use the compact layout; get() works before and after finish()', async () => {
  const seg = await engine().createSegment(tempDir());
  const w = await seg.openWriter('crawl_parse', 0, { totalPartitions: 1 });
  const rows = Array.from({ length: 1200 }, (_, i) => ({ url: `http://h${i % 7}/p${(i * 37) % 1200}`, value: { ...full, retries: i } }));
  await w.append(rows);
  assert.equal((await seg.get('crawl_parse', 'http://h0/p0')).length, 1, 'found by a scan while the part is open');
  const file = path.join(seg.path, 'crawl_parse', 'part-00000');
  const indexes = () => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map((r) => r.name);
    } finally {
      db.close();
    }
  };
  assert.deepEqual(indexes(), [], 'no url index while appending');
  await w.finish();
  await w.close();
  assert.deepEqual(indexes(), ['records_url'], 'finish() builds the url index');
  assert.deepEqual(await collect(seg.read('crawl_parse')), rows);
  const got = await seg.get('crawl_parse', rows[500].url);
  assert.deepEqual(got, [rows[500].value]);
  await seg.close();
});

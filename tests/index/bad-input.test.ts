/** Bad documents through the whole index stage: huge content, lone UTF-16 surrogates, odd field names. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { index } from '../../core/crawl/index/index.js';
import { search } from '../../core/crawl/search/search.js';
import { tempDir } from '../helpers/temp-dir.js';
import { buildCrawl, indexContext } from './crawl-fixture.js';

test('index: huge content is cut by indexer.max.content.length; lone surrogates become U+FFFD; odd field names survive', async (t) => {
  const dir = tempDir(t);
  const out = join(dir, 'docs.jsonl');
  const ctx = indexContext(t, { writers: [{ id: 'sqlite', extension: 'indexer-sqlite' }, { id: 'jsonl', extension: 'indexer-jsonl', parameters: { path: out } }] }, {
    'indexer.max.content.length': '100000', 'index.parse.md': 'odd"name"/with:chars \u00e9t\u00e9', 'indexingfilter.order': 'index-basic index-metadata',
  });
  const huge = 'hugeword ' + 'x'.repeat(5_000_000);
  const f = await buildCrawl(ctx, join(dir, 'crawl'), [
    { url: 'http://huge.example/', title: 'Huge', text: huge },
    { url: 'http://bad.example/', title: 'Broken \uD83D title', text: 'text \uDC00 with surrogatesword', parseMeta: { 'odd"name"/with:chars': ['v1'], 'été': ['summer'] } },
  ]);
  const counters = await index(ctx, { crawlDb: f.crawlDb, segments: [f.segment] });
  assert.equal(counters['indexed (add/update)'], 2);
  const docs = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const hugeDoc = docs.find((d) => d.id === 'http://huge.example/');
  assert.equal(hugeDoc.fields.content[0].length, 100_000);
  const bad = docs.find((d) => d.id === 'http://bad.example/');
  assert.equal(bad.fields.title[0], 'Broken \uFFFD title');
  assert.equal(bad.fields.content[0], 'text \uFFFD with surrogatesword');
  assert.deepEqual(bad.fields['odd"name"/with:chars'], ['v1']);
  assert.deepEqual(bad.fields['été'], ['summer']);
  assert.equal((await search(ctx, { crawlDir: f.crawlDir, query: 'hugeword', limit: 3 }))[0]?.url, 'http://huge.example/');
  assert.equal((await search(ctx, { crawlDir: f.crawlDir, query: 'surrogatesword', limit: 3 }))[0]?.title, 'Broken \uFFFD title');
});

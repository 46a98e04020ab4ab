/**
 * Each composite's combine rule, written once in its file and in docs/plugins.md:
 * URLFilter chain short-circuits on null; URLNormalizer reduce, null drops; ScoringFilter reduce;
 * IndexingFilter chain, null drops; IndexWriter fan-out; URLExemptionFilter any; HtmlParseFilter chain.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { URLFilters } from '../../core/extension-points/url-filter.js';
import { URLNormalizers } from '../../core/extension-points/url-normalizer.js';
import { ScoringFilters } from '../../core/extension-points/scoring-filter.js';
import { IndexingFilters } from '../../core/extension-points/indexing-filter.js';
import { IndexWriters, type IndexWriter } from '../../core/extension-points/index-writer.js';
import { URLExemptionFilters } from '../../core/extension-points/url-exemption-filter.js';
import { HtmlParseFilters } from '../../core/extension-points/html-parse-filter.js';
import type { NutchDocument } from '../../core/model/nutch-document.js';
import type { CrawlDatum } from '../../core/model/crawl-datum.js';

test('URLFilters: each filter sees the previous output; the first null rejects and later filters never run', () => {
  const calls: string[] = [];
  const f = new URLFilters([
    { extensionId: 'lower', filter: { filter: (u) => (calls.push('lower'), u.toLowerCase()) } },
    { extensionId: 'deny', filter: { filter: (u) => (calls.push('deny'), u.includes('/ads') ? null : u) } },
    { extensionId: 'never', filter: { filter: (u) => (calls.push('never'), u) } },
  ]);
  assert.equal(f.filter('HTTP://X/ADS'), null);
  assert.deepEqual(calls, ['lower', 'deny']);
  assert.equal(f.filter('HTTP://X/Ok'), 'http://x/ok', 'an accepting filter may rewrite');
  assert.deepEqual(f.trace('http://x/ads'), { result: null, rejectedBy: 'deny' });
  assert.deepEqual(new URLFilters([]).filter('http://x/'), 'http://x/', 'an empty chain accepts');
});

test('URLFilters: a filter that throws rejects the URL and reports extension and URL', () => {
  const errors: string[] = [];
  const f = new URLFilters([{ extensionId: 'bad', filter: { filter: () => { throw new Error('boom'); } } }], (id, url, err) => errors.push(`${id} ${url} ${(err as Error).message}`));
  assert.equal(f.filter('http://x/'), null);
  assert.deepEqual(errors, ['bad http://x/ boom']);
});

test('URLNormalizers: reduce; null drops; the chain reruns up to loop.count while the URL changes', () => {
  let passes = 0;
  const n = new URLNormalizers('default', [
    { extensionId: 'count', normalizer: { normalize: (u) => (passes++, u) } },
    { extensionId: 'strip', normalizer: { normalize: (u) => u.replace(/\/$/, '') } },
    { extensionId: 'drop', normalizer: { normalize: (u) => (u.endsWith('/never') ? null : u) } },
  ], 5);
  assert.equal(n.normalize('http://x/a///'), 'http://x/a');
  assert.equal(passes, 4, '3 changing passes and one that changes nothing');
  assert.equal(n.normalize('http://x/never/'), null);
});

test('ScoringFilters: reduce — each filter gets the previous value; optional methods are skipped', () => {
  const datum = { score: 1 } as unknown as CrawlDatum;
  const s = new ScoringFilters([
    { extensionId: 'double', filter: { generatorSortValue: (_u, _d, v) => v * 2, injectedScore: (_u, d) => void ((d as { score: number }).score += 1) } },
    { extensionId: 'empty', filter: {} },
    { extensionId: 'plus', filter: { generatorSortValue: (_u, _d, v) => v + 3, indexerScore: (_u, _doc, _a, _b, _p, _i, v) => v / 2 } },
  ]);
  assert.equal(s.generatorSortValue('http://x/', datum, 5), 13);
  assert.equal(s.indexerScore('http://x/', {} as NutchDocument, null, null, null, null, 8), 4);
  s.injectedScore('http://x/', datum);
  assert.equal((datum as unknown as { score: number }).score, 2, 'methods mutate the datum, as Nutch');
  assert.equal(s.distributeScoreToOutlinks('http://x/', {} as never, [], null, 0), null);
});

test('ScoringFilters: an error is re-thrown through the error sink (tagged by the chains)', () => {
  const s = new ScoringFilters([{ extensionId: 'bad', filter: { initialScore: () => { throw new Error('nope'); } } }], (id, url, err) => {
    throw Object.assign(new Error(`${id} on ${url}: ${(err as Error).message}`), { code: 'NUTCH_EXTENSION_FAILED' });
  });
  assert.throws(() => s.initialScore('http://x/', {} as CrawlDatum), (err: any) => err.code === 'NUTCH_EXTENSION_FAILED' && err.message === 'bad on http://x/: nope');
});

test('IndexingFilters: chain; null drops the document and later filters never run', async () => {
  const calls: string[] = [];
  const doc = { fields: {} } as unknown as NutchDocument;
  const f = new IndexingFilters([
    { extensionId: 'add', filter: { filter: async (d) => (calls.push('add'), { ...d, boost: 2 } as NutchDocument) } },
    { extensionId: 'drop-if', filter: { filter: (d, c) => (calls.push('drop-if'), c.url.includes('private') ? null : d) } },
    { extensionId: 'last', filter: { filter: (d) => (calls.push('last'), d) } },
  ]);
  const ctx = (url: string) => ({ url, parse: {} as never, dbDatum: null, fetchDatum: null, inlinks: null });
  assert.deepEqual(await f.filter(doc, ctx('http://x/public')), { fields: {}, boost: 2 });
  calls.length = 0;
  assert.equal(await f.filter(doc, ctx('http://x/private')), null);
  assert.deepEqual(calls, ['add', 'drop-if']);
});

test('IndexWriters: fan-out — every writer gets every action in order; an error names the writer', async () => {
  const log: string[] = [];
  const writer = (id: string, failOn?: string): IndexWriter => ({
    open: async () => void log.push(`${id} open`),
    write: async (d) => { if (failOn === 'write') throw new Error('disk full'); log.push(`${id} write ${(d as unknown as { id: string }).id}`); },
    delete: async (k) => void log.push(`${id} delete ${k}`),
    commit: async () => void log.push(`${id} commit`),
    close: async () => void log.push(`${id} close`),
  });
  const w = new IndexWriters([{ writerId: 'a', writer: writer('a') }, { writerId: 'b', writer: { ...writer('b'), search: async () => [] } }]);
  await w.write({ id: 'doc1' } as unknown as NutchDocument);
  await w.update({ id: 'doc2' } as unknown as NutchDocument);
  await w.delete('http://x/gone');
  await w.commit();
  assert.deepEqual(log, ['a write doc1', 'b write doc1', 'a write doc2', 'b write doc2', 'a delete http://x/gone', 'b delete http://x/gone', 'a commit', 'b commit']);
  assert.deepEqual(w.chain, ['a', 'b']);
  assert.equal(typeof w.searcher()?.search, 'function', 'the first writer with the searcher capability');
  const failing = new IndexWriters([{ writerId: 'broken', writer: writer('broken', 'write') }]);
  await assert.rejects(failing.write({ id: 'x' } as unknown as NutchDocument), (err: any) => err.writerId === 'broken' && err.message === 'disk full');
});

test('URLExemptionFilters: any filter saying true exempts; HtmlParseFilters: chain of parse results', async () => {
  const e = new URLExemptionFilters([{ extensionId: 'no', filter: { filter: () => false } }, { extensionId: 'yes', filter: { filter: (_f, to) => to.startsWith('http://cdn.') } }]);
  assert.equal(e.isExempted('http://a/', 'http://cdn.a/x.js'), true);
  assert.equal(e.isExempted('http://a/', 'http://b/'), false);
  const h = new HtmlParseFilters([
    { extensionId: 'one', filter: { filter: (_c, r) => ({ ...(r as object), one: true }) as never } },
    { extensionId: 'two', filter: { filter: async (_c, r) => ({ ...(r as object), two: (r as unknown as { one: boolean }).one }) as never } },
  ]);
  assert.deepEqual(await h.filter({} as never, {} as never, {} as never, null), { one: true, two: true });
});

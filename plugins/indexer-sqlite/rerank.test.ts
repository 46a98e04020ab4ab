/**
 * The re-ranking features of the embedded index, one by one: each test gives two candidates where
 * BM25 prefers the wrong one and the feature under test must turn the order around — and, with that
 * feature's weight at 0, BM25's order stays.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RANK_WEIGHTS, features, proximity, rerank, tokens, type Candidate, type RankWeights } from './rerank.js';

const page = (url: string, over: Partial<Candidate> = {}): Candidate => ({ url, title: '', headings: '', anchor: '', proximity: 0, bm25: -1, ...over });
const order = (q: string, cs: Candidate[], w: Partial<RankWeights> = {}) => rerank(q, cs, { ...DEFAULT_RANK_WEIGHTS, ...w }).map((r) => r.candidate.url);

test('tokens split as FTS5 unicode61 does: case, diacritics and underscores', () => {
  assert.deepEqual(tokens('find_package — CMake 3.25 Crème'), ['find', 'package', 'cmake', '3', '25', 'creme']);
});

test('a title holding the query (as its phrase, its beginning) beats a page that only repeats the words in its body', () => {
  const manual = page('http://h/a.html', { title: 'CREATE INDEX', bm25: -3 });
  const noisy = page('http://h/b.html', { title: 'Progress Reporting', proximity: proximity(['create', 'index', 'concurrently'], 'create index concurrently create index create index'), bm25: -6 });
  assert.deepEqual(order('create index concurrently', [noisy, manual]), ['http://h/a.html', 'http://h/b.html']);
  assert.deepEqual(order('create index concurrently', [noisy, manual], { title: 0, titlePhrase: 0, titleExact: 0, proximity: 0 }), ['http://h/b.html', 'http://h/a.html']);
  const f = features(['create', 'index'], manual);
  assert.equal(f.title, 1);
  assert.equal(f.titlePhrase, 1);
  assert.equal(f.titleExact, 1);
});

test('URL path words count, a path word also matching query words written together', () => {
  const byPath = page('http://h/docs/sql-createindex.html', { bm25: -2 });
  const other = page('http://h/docs/indexes.html', { bm25: -3 });
  assert.equal(features(['create', 'index'], byPath).path, 1);
  assert.equal(features(['pg', 'dump'], page('http://h/app-pgdump.html')).path, 1);
  assert.equal(features(['create', 'index'], other).path, 0);
  assert.deepEqual(order('create index', [other, byPath]), [byPath.url, other.url]);
  assert.deepEqual(order('create index', [other, byPath], { path: 0 }), [other.url, byPath.url]);
});

test('headings and anchors are fields of their own', () => {
  const headed = page('http://h/tuning.html', { headings: 'Connection pooling\nLimits', bm25: -2 });
  const plain = page('http://h/misc.html', { bm25: -3 });
  assert.deepEqual(order('connection pooling', [plain, headed], { proximity: 0 }), [headed.url, plain.url]);
  assert.deepEqual(order('connection pooling', [plain, headed], { proximity: 0, headings: 0 }), [plain.url, headed.url]);
  const anchored = page('http://h/snap.html', { anchor: 'nightly snapshot', bm25: -2 });
  assert.deepEqual(order('nightly snapshot', [plain, anchored], { proximity: 0 }), [anchored.url, plain.url]);
  assert.deepEqual(order('nightly snapshot', [plain, anchored], { proximity: 0, anchor: 0 }), [plain.url, anchored.url]);
});

test('proximity: the words next to each other beat the same words far apart', () => {
  const terms = ['write', 'ahead', 'log'];
  assert.equal(proximity(terms, 'the write ahead log keeps changes'), 1);
  const scattered = proximity(terms, 'write once; read the log; go ahead and more words here');
  assert.ok(scattered > 0 && scattered < 0.5, String(scattered));
  assert.equal(proximity(terms, 'write and log only'), 0);
  const near = page('http://h/near.html', { proximity: 1, bm25: -2.5 });
  const far = page('http://h/far.html', { proximity: scattered, bm25: -3 });
  assert.deepEqual(order('write ahead log', [far, near]), [near.url, far.url]);
  assert.deepEqual(order('write ahead log', [far, near], { proximity: 0 }), [far.url, near.url]);
});

test('with every feature weight at 0 the order is BM25 order', () => {
  const a = page('http://h/a', { title: 'x y', bm25: -1 });
  const b = page('http://h/b', { bm25: -2 });
  assert.deepEqual(order('x y', [a, b], { title: 0, titlePhrase: 0, titleExact: 0, path: 0, headings: 0, anchor: 0, proximity: 0 }), [b.url, a.url]);
});

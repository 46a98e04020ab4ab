// Unit test of the filter on its own (run with `npm test` inside this folder, or from the nutch-ts repo).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadingTimeIndexingFilter, countWords } from '../index.js';

const conf = (values) => ({ getInt: (k, d) => (k in values ? values[k] : d) });
const ctx = (text) => ({ url: 'http://x/', parse: { text, data: {}, isCanonical: true }, dbDatum: null, fetchDatum: null, inlinks: null });

test('counts words, hyphenated and apostrophe words as one', () => {
  assert.equal(countWords("It's a well-known fact: 42 crawlers!"), 5);
  assert.equal(countWords(''), 0);
  assert.equal(countWords('Ünïcödé wörds ok'), 3);
});

test('adds wordcount and readingtime, rounding up', () => {
  const f = new ReadingTimeIndexingFilter({ conf: conf({ 'readingtime.words.per.minute': 2 }) });
  const doc = f.filter({ fields: {}, weight: 1, documentMeta: {} }, ctx('one two three'));
  assert.deepEqual(doc.fields, { wordcount: [3], readingtime: [2] });
});

test('drops documents below readingtime.min.words', () => {
  const f = new ReadingTimeIndexingFilter({ conf: conf({ 'readingtime.min.words': 5 }) });
  assert.equal(f.filter({ fields: {}, weight: 1, documentMeta: {} }, ctx('too short')), null);
});

/**
 * The RTF extractor on hand-written documents: control words named like Object.prototype members
 * (`\constructor`, `\toString`) are unknown destinations, skipped, never taken for \info fields.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractRtf } from './rtf-extractor.js';

const limits = { maxTextChars: 100_000, maxExpandedBytes: 1 << 20, maxExpansionRatio: 100, maxPdfDecodedBytes: 1 << 20 };
const rtf = (s: string) => new TextEncoder().encode(s);

test('rtf: \\constructor and \\toString in \\info are unknown fields, not the title or a date', () => {
  const doc = extractRtf(rtf('{\\rtf1{\\info{\\title The title}{\\constructor not a field}{\\toString nor this}{\\creatim\\yr2025\\mo1\\dy2\\hr3\\min4}}The body\\par}'), limits);
  assert.equal(doc.title, 'The title');
  assert.match(doc.text, /The body/);
  assert.doesNotMatch(doc.text, /not a field|nor this/);
  assert.equal(JSON.stringify(doc).includes('not a field'), false, 'stored nowhere');
});

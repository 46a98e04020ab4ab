/** `nutch search` output for people: highlights bold on a TTY, plain elsewhere; readable scores. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatScore, renderSnippet } from '../../sdk/cli/search-format.js';

test('highlights: ANSI bold on a terminal, plain text elsewhere, whitespace collapsed', () => {
  const s = 'the quick <b>fox</b>\n jumps over <b>lazy  dogs</b>';
  assert.equal(renderSnippet(s, true), 'the quick \x1b[1mfox\x1b[22m jumps over \x1b[1mlazy dogs\x1b[22m');
  assert.equal(renderSnippet(s, false), 'the quick fox jumps over lazy dogs');
});

test('scores: three significant digits, tiny BM25 scores in exponent form instead of 0.0000', () => {
  assert.equal(formatScore(3.14159), '3.14');
  assert.equal(formatScore(12.3456), '12.3');
  assert.equal(formatScore(0.0123), '0.0123');
  assert.equal(formatScore(0.0000024137), '2.41e-6');
  assert.equal(formatScore(0), '0');
});

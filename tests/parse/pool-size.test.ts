import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { InlineParse } from '../../core/crawl/parse/inline-parse.js';
import { SegmentParser } from '../../core/crawl/parse/segment-parser.js';
import { parsePoolOf } from '../../core/parse/parsers.js';
import { fixtureContext } from '../helpers/context.js';

const defines = { 'plugin.includes': 'parse-html|urlfilter-regex|urlnormalizer-basic' };

test('parser.worker.threads = 0: one worker per core for the parse stage', async (t) => {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines });
  const parser = await SegmentParser.create(ctx);
  assert.equal(parser.pool.size, availableParallelism());
});

test('parser.worker.threads = 0: one per core but the first beside the fetcher (inline parse), at least one', async (t) => {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines });
  await InlineParse.create(ctx);
  assert.equal(parsePoolOf(ctx).size, Math.max(1, availableParallelism() - 1));
});

test('parser.worker.threads set: that many workers, inline or not', async (t) => {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { ...defines, 'parser.worker.threads': '3' } });
  await InlineParse.create(ctx);
  assert.equal(parsePoolOf(ctx).size, 3);
});

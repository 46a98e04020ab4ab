// Tests of the plugin as nutch-ts runs it: nutch-ts/testing loads this folder as a plugin (its
// package.json "nutch" manifest), activates it, and runs the IndexingFilter chain the way the index
// stage does. Run with `npm test` in this folder (nutch-ts is a devDependency).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createTestContext, runIndexingFilter } from 'nutch-ts/testing';
import { countWords } from '../index.js';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));

async function indexed(text, config = {}) {
  const ctx = createTestContext({
    pluginFolders: [pluginDir],
    config: { 'plugin.includes': 'nutch-index-readingtime', ...config },
  });
  try {
    return await runIndexingFilter(ctx, { url: 'http://example.org/', text });
  } finally {
    await ctx.close();
  }
}

test('counts words, hyphenated and apostrophe words as one', () => {
  assert.equal(countWords("It's a well-known fact: 42 crawlers!"), 6);
  assert.equal(countWords(''), 0);
  assert.equal(countWords('Ünïcödé wörds ok'), 3);
});

test('adds wordcount and readingtime, rounding up', async () => {
  const doc = await indexed('one two three', { 'readingtime.words.per.minute': 2 });
  assert.deepEqual(doc.fields.wordcount, [3]);
  assert.deepEqual(doc.fields.readingtime, [2]);
});

test('drops documents below readingtime.min.words', async () => {
  assert.equal(await indexed('too short', { 'readingtime.min.words': 5 }), null);
});

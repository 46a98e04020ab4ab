/** urlnormalizer-querystring through the real PluginRepository: Nutch's TestQuerystringURLNormalizer and more. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestContext, runURLNormalizer } from '../../sdk/testing.js';

const pluginDir = dirname(fileURLToPath(import.meta.url));

const cases: [string, string][] = [
  // Nutch TestQuerystringURLNormalizer
  ['http://example.com/?c=d&a=b', 'http://example.com/?a=b&c=d'],
  ['http://example.com/a/b/c', 'http://example.com/a/b/c'],
  ['http://example.com:1234/a/b/c', 'http://example.com:1234/a/b/c'],
  ['http://example.com:1234/a/b/c#ref', 'http://example.com:1234/a/b/c#ref'],
  ['http://example.com:1234/a/b/c?c=d&a=b#ref', 'http://example.com:1234/a/b/c?a=b&c=d#ref'],
  ['http://example.com/?c=d&a=b&a=c', 'http://example.com/?a=b&a=c&c=d'],
  // more of ours
  ['http://example.com/?a=1', 'http://example.com/?a=1'],
  ['http://example.com/?', 'http://example.com/?'],
  ['http://example.com/?b&a', 'http://example.com/?a&b'],
  ['http://example.com/?b=2&&a=1', 'http://example.com/?&a=1&b=2'],
  ['http://example.com/?z=1&Z=2&a=3', 'http://example.com/?Z=2&a=3&z=1'],
  ['http://example.com/?a=2&a=1', 'http://example.com/?a=1&a=2'],
  ['http://example.com/?ab=1&a=2', 'http://example.com/?a=2&ab=1'],
  ['http://example.com/?a%3D=1&a=2', 'http://example.com/?a%3D=1&a=2'],
  ['http://example.com/p#x?b=1&a=2', 'http://example.com/p#x?b=1&a=2'],
  ['http://user:pw@example.com/p?y=1&x=2', 'http://user:pw@example.com/p?x=2&y=1'],
  ['http://example.com/?q=%C3%A9&a=1', 'http://example.com/?a=1&q=%C3%A9'],
  ['http://example.com/?utm_source=x&id=5&page=2', 'http://example.com/?id=5&page=2&utm_source=x'],
  ['mailto:x@example.com?subject=b&body=a', 'mailto:x@example.com?subject=b&body=a'],
  ['http://example.com/?a=1&b=2', 'http://example.com/?a=1&b=2'],
  ['http://example.com/?b=1&a=2&', 'http://example.com/?&a=2&b=1'],
  ['http://example.com/?c=3&b=2&a=1&d=4&e=5', 'http://example.com/?a=1&b=2&c=3&d=4&e=5'],
  ['http://example.com/?b=%2B&a=+', 'http://example.com/?a=+&b=%2B'],
  ['http://example.com/?x=1;y=2&a=3', 'http://example.com/?a=3&x=1;y=2'],
  ['http://example.com/p?b=1&a=2#', 'http://example.com/p?a=2&b=1#'],
  ['http://example.com/?2=b&10=a', 'http://example.com/?10=a&2=b'],
  ['http://example.com:8080/?b&a#f', 'http://example.com:8080/?a&b#f'],
];

test('query parameters are sorted (table)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'urlnormalizer-querystring-'));
  const ctx = createTestContext({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, includeBuiltins: false, pluginFolders: [pluginDir], config: { 'plugin.includes': 'urlnormalizer-querystring' } });
  try {
    const out = await runURLNormalizer(ctx, cases.map((c) => c[0]), { extensionId: 'urlnormalizer-querystring' });
    cases.forEach(([input, expected], i) => assert.equal(out[i], expected, input));
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the querystring normalizer is idempotent', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'urlnormalizer-querystring-'));
  const ctx = createTestContext({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, includeBuiltins: false, pluginFolders: [pluginDir], config: { 'plugin.includes': 'urlnormalizer-querystring' } });
  try {
    const once = await runURLNormalizer(ctx, cases.map((c) => c[0]));
    assert.deepEqual(await runURLNormalizer(ctx, once as string[]), once);
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * The default normalizer chain as a crawl runs it: urlnormalizer-basic, then urlnormalizer-regex with
 * the shipped conf/regex-normalize.xml, then urlnormalizer-pass (urlnormalizer.order's default).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestContext, runURLNormalizer } from '../../sdk/testing.js';

const pluginsDir = dirname(dirname(fileURLToPath(import.meta.url)));
// lib-regex-filter: urlnormalizer-regex requires it
const folders = ['urlnormalizer-basic', 'urlnormalizer-regex', 'urlnormalizer-pass', 'lib-regex-filter'].map((id) => join(pluginsDir, id));

const cases: [string, string | null][] = [
  ['HTTP://WWW.Example.COM:80/a/./b/../c.html;jsessionid=0A1B2C3D?x=1&&y=2#frag', 'http://www.example.com/a/c.html?x=1&y=2'],
  ['http://www.example.com/foo.php?PHPSESSID=cdc993a493e899bed04f4d0c8a462a03&f=2', 'http://www.example.com/foo.php?f=2'],
  ['http://www.example.com/foo.html?&x=y', 'http://www.example.com/foo.html?x=y'],
  ['http://www.example.com/search?', 'http://www.example.com/search'],
  ['http://www.example.com//a//b/', 'http://www.example.com/a/b/'],
  ['https://www.example.com/%7Euser/%66ile', 'https://www.example.com/~user/file'],
  ['http://www.example.com/caf\u00e9 menu', 'http://www.example.com/caf%C3%A9%20menu'],
  ['http://www.example.com/index.html', 'http://www.example.com/index.html'],
  ['http://www.example.com/a?redirect=http://other.org//x', 'http://www.example.com/a?redirect=http://other.org/x'],
  ['file:///tmp//x.txt', 'file:/tmp/x.txt'],
  ['http://www.example.com/dir.', 'http://www.example.com/dir'],
  ['http://a..b/', null],
  ['www.example.com/no-scheme', null],
  // host-less and stray-% forms as Nutch's BasicURLNormalizer gives them (not dropped)
  ['http://', 'http:/'],
  ['http://www.example.com/%zz', 'http://www.example.com/%25zz'],
];

test('default chain (basic -> regex -> pass) on a table of URLs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'urlnormalizer-chain-'));
  const ctx = createTestContext({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, includeBuiltins: false, pluginFolders: folders });
  try {
    const chain = await ctx.extensions.urlNormalizers('default');
    assert.deepEqual(chain.chain, ['urlnormalizer-basic', 'urlnormalizer-regex', 'urlnormalizer-pass']);
    const out = await runURLNormalizer(ctx, cases.map((c) => c[0]));
    cases.forEach(([input, expected], i) => assert.equal(out[i], expected, input));
    // a normalised URL is a fixed point of the chain
    const again = await runURLNormalizer(ctx, out.filter((u): u is string => u !== null));
    assert.deepEqual(again, out.filter((u) => u !== null));
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

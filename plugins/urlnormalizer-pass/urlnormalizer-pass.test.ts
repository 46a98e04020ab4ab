/** urlnormalizer-pass through the real PluginRepository: every URL, in every scope, comes back unchanged. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NormalizerScopes } from '../../sdk/plugin.js';
import { createTestContext, runURLNormalizer } from '../../sdk/testing.js';

const pluginDir = dirname(fileURLToPath(import.meta.url));

const urls = [
  'http://foo.com/',
  'HTTP://Foo.Com:80/a/../b#frag',
  'http://foo.com//a//b',
  'http://foo.com/%7e?x=%zz',
  'https://b\u00fccher.de/',
  'ftp://ftp.example.org/pub/',
  'file:///etc/passwd',
  'mailto:someone@example.com',
  'javascript:void(0)',
  'http://foo.com/?b=2&a=1',
  'http://foo.com/you too',
  ' http://foo.com/ ',
  '',
  'not a url',
  'http://',
  'http://a..b/',
  'http://foo.com/' + 'x'.repeat(5000),
  'http://[::1]:8080/',
  'http://foo.com/;jsessionid=ABC',
  'http://foo.com/\u0001',
];

function context(config: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'urlnormalizer-pass-'));
  const ctx = createTestContext({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, includeBuiltins: false, pluginFolders: [pluginDir], config: { 'plugin.includes': 'urlnormalizer-pass', ...config } });
  return { ctx, done: async () => { await ctx.close(); rmSync(dir, { recursive: true, force: true }); } };
}

for (const scope of NormalizerScopes) {
  test(`every URL passes unchanged in scope ${scope}`, async () => {
    const { ctx, done } = context();
    try {
      assert.deepEqual(await runURLNormalizer(ctx, urls, { scope }), urls);
    } finally {
      await done();
    }
  });
}

test('the extension is found by its Nutch class name in urlnormalizer.scope.<scope>', async () => {
  const { ctx, done } = context({ 'urlnormalizer.scope.fetcher': 'org.apache.nutch.net.urlnormalizer.pass.PassURLNormalizer' });
  try {
    const chain = await ctx.extensions.urlNormalizers('fetcher');
    assert.deepEqual(chain.chain, ['urlnormalizer-pass']);
    assert.deepEqual(chain.trace('http://a.com/'), { result: 'http://a.com/', changedBy: [] });
  } finally {
    await done();
  }
});

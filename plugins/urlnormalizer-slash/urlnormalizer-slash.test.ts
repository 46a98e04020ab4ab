/** urlnormalizer-slash through the real PluginRepository, with Nutch's test data/slashes.txt. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestContext, runURLNormalizer } from '../../sdk/testing.js';

const pluginDir = dirname(fileURLToPath(import.meta.url));

// Nutch's src/plugin/urlnormalizer-slash/data/slashes.txt, plus a bad line.
const SLASHES = ['# We prefer this domain with slashes', 'www.example.org +', '', '# ..but this domain without', 'www.example.net\t-', 'bad.example.top ?', ''].join('\n');

async function run(urls: string[], config: Record<string, unknown> = {}, files: Record<string, string> = { 'slashes.txt': SLASHES }) {
  const dir = mkdtempSync(join(tmpdir(), 'urlnormalizer-slash-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const ctx = createTestContext({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, includeBuiltins: false, pluginFolders: [pluginDir], config: { 'plugin.includes': 'urlnormalizer-slash', ...config } });
  try {
    const out = await runURLNormalizer(ctx, urls, { extensionId: 'urlnormalizer-slash' });
    return { out, warnings: ctx.log.records.filter((r) => r.level === 'warn').map((r) => r.msg) };
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const cases: [string, string][] = [
  // Nutch TestSlashURLNormalizer
  ['http://example.org/', 'http://example.org/'],
  ['http://example.net/', 'http://example.net/'],
  ['http://example.org', 'http://example.org'],
  ['http://example.net', 'http://example.net'],
  ['http://www.example.org/page', 'http://www.example.org/page/'],
  ['http://www.example.net/path/to/something/', 'http://www.example.net/path/to/something'],
  ['http://example.org/buh/', 'http://example.org/buh/'],
  ['http://example.net/blaat', 'http://example.net/blaat'],
  ['http://example.nl/buh/', 'http://example.nl/buh/'],
  ['http://example.de/blaat', 'http://example.de/blaat'],
  ['http://www.example.org/page?a=b&c=d', 'http://www.example.org/page/?a=b&c=d'],
  ['http://www.example.net/path/to/something/?a=b&c=d', 'http://www.example.net/path/to/something?a=b&c=d'],
  ['http://www.example.org/noise.mp3', 'http://www.example.org/noise.mp3'],
  ['http://www.example.org/page.html', 'http://www.example.org/page.html'],
  ['http://www.example.org/page.shtml', 'http://www.example.org/page.shtml'],
  ['http://www.example.org/this.is.not.an_extension', 'http://www.example.org/this.is.not.an_extension/'],
  // more of ours
  ['http://www.example.org/', 'http://www.example.org/'],
  ['http://www.example.net/', 'http://www.example.net/'],
  ['http://www.example.org/a', 'http://www.example.org/a/'],
  ['http://www.example.org/a.b', 'http://www.example.org/a.b/'], // Nutch: paths shorter than 6 characters always get the slash
  ['http://www.example.org/dir/page.b', 'http://www.example.org/dir/page.b'],
  ['http://www.example.org/dir/', 'http://www.example.org/dir/'],
  ['http://www.example.net/dir', 'http://www.example.net/dir'],
  ['http://www.example.org:8080/page#frag', 'http://www.example.org:8080/page/#frag'],
  ['http://www.example.net:8080/page/?q#f', 'http://www.example.net:8080/page?q#f'],
  ['http://user@www.example.org/page', 'http://user@www.example.org/page/'],
  ['http://WWW.EXAMPLE.ORG/Page', 'http://WWW.EXAMPLE.ORG/Page/'],
  ['http://bad.example.top/page', 'http://bad.example.top/page'],
  ['no url here', 'no url here'],
];

test('Nutch slashes.txt: table of URLs', async () => {
  const { out } = await run(cases.map((c) => c[0]));
  cases.forEach(([input, expected], i) => assert.equal(out[i], expected, input));
});

test('a rule that is neither + nor - is skipped with a warning naming file and line', async () => {
  const { warnings } = await run(['http://www.example.org/']);
  assert.ok(warnings.some((w) => /slashes\.txt:6: expected "<host> \+" or "<host> -", got "bad\.example\.top \?"/.test(w)), warnings.join('\n'));
});

test('inline urlnormalizer.slashes.rules take precedence over the file', async () => {
  const { out } = await run(['http://a.test/x', 'http://www.example.org/page'], { 'urlnormalizer.slashes.rules': 'a.test +' });
  assert.deepEqual(out, ['http://a.test/x/', 'http://www.example.org/page']);
});

test('the shipped conf/slashes.txt has no rules: nothing changes', async () => {
  const { out } = await run(['http://www.example.org/page', 'http://www.example.net/dir/'], {}, {});
  assert.deepEqual(out, ['http://www.example.org/page', 'http://www.example.net/dir/']);
});

test('a missing rule file is a configuration error naming the property', async () => {
  await assert.rejects(run(['http://a.org/'], { 'urlnormalizer.slashes.file': 'none.txt' }, {}), (err: { code?: string; message: string }) => {
    assert.equal(err.code, 'NUTCH_CONFIG_FILE_NOT_FOUND');
    assert.match(err.message, /urlnormalizer\.slashes\.file/);
    return true;
  });
});

/** urlnormalizer-protocol through the real PluginRepository, with Nutch's test data/protocols.txt. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestContext, runURLNormalizer } from '../../sdk/testing.js';

const pluginDir = dirname(fileURLToPath(import.meta.url));

// Nutch's src/plugin/urlnormalizer-protocol/data/protocols.txt, invalid lines included.
const NUTCH_PROTOCOLS = [
  '# format: <host>\\t<protocol>\\n', '', 'example.org\thttp', 'example.net\thttp', '', 'example.io\thttps', 'example.nl\thttps', '',
  '*.example.com\thttps', '', '# no host/domain', '\thttps', '# no protocol', 'invalid-rule1.example.top',
  '# more than two fields (skip rule)', 'invalid-rule2.example.top\thttps\thttp', '# invalid protocol, not following RFC 1630 (skip rule)',
  'invalid-rule3.example.top\t@mail', 'space.example.top https', '*.Deep.Example.com http', '',
].join('\n');

async function run(urls: string[], config: Record<string, unknown> = {}, files: Record<string, string> = { 'protocols.txt': NUTCH_PROTOCOLS }) {
  const dir = mkdtempSync(join(tmpdir(), 'urlnormalizer-protocol-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const ctx = createTestContext({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, includeBuiltins: false, pluginFolders: [pluginDir], config: { 'plugin.includes': 'urlnormalizer-protocol', ...config } });
  try {
    const out = await runURLNormalizer(ctx, urls, { extensionId: 'urlnormalizer-protocol' });
    return { out, warnings: ctx.log.records.filter((r) => r.level === 'warn').map((r) => r.msg) };
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const cases: [string, string][] = [
  // Nutch TestProtocolURLNormalizer
  ['https://example.org/', 'http://example.org/'],
  ['https://example.net/', 'http://example.net/'],
  ['http://example.org/', 'http://example.org/'],
  ['https://example.io/', 'https://example.io/'],
  ['https://example.nl/', 'https://example.nl/'],
  ['http://example.io/', 'https://example.io/'],
  ['http://example.nl/', 'https://example.nl/'],
  // domain patterns: the domain itself and every host below it
  ['http://example.com/', 'https://example.com/'],
  ['http://www.example.com/a?b#c', 'https://www.example.com/a?b#c'],
  ['http://a.b.example.com/', 'https://a.b.example.com/'],
  ['http://www.myexample.com/', 'http://www.myexample.com/'],
  ['http://example.com.evil.org/', 'http://example.com.evil.org/'],
  // the longest domain wins, exact host before domains
  ['https://x.deep.example.com/', 'http://x.deep.example.com/'],
  ['https://deep.example.com/', 'http://deep.example.com/'],
  // a port keeps the protocol
  ['http://example.io:8080/', 'http://example.io:8080/'],
  ['https://example.org:443/', 'https://example.org:443/'],
  // case of scheme and host in the URL does not matter for the lookup
  ['HTTP://Example.IO/Path', 'https://Example.IO/Path'],
  ['http://user:pw@example.io/x', 'https://user:pw@example.io/x'],
  // unlisted, skipped and unparsable input passes unchanged
  ['http://example.de/', 'http://example.de/'],
  ['http://invalid-rule1.example.top/', 'http://invalid-rule1.example.top/'],
  ['http://invalid-rule2.example.top/', 'http://invalid-rule2.example.top/'],
  ['http://invalid-rule3.example.top/', 'http://invalid-rule3.example.top/'],
  ['http://space.example.top/', 'https://space.example.top/'],
  ['ftp://example.io/pub', 'https://example.io/pub'],
  ['mailto:x@example.io', 'mailto:x@example.io'],
  ['http://[::1]/', 'http://[::1]/'],
];

test('Nutch protocols.txt: table of URLs', async () => {
  const { out } = await run(cases.map((c) => c[0]));
  cases.forEach(([input, expected], i) => assert.equal(out[i], expected, input));
});

test('invalid rule lines are skipped with a warning naming file and line', async () => {
  const { warnings } = await run(['http://example.io/']);
  assert.ok(warnings.some((w) => /protocols\.txt:14: "invalid-rule1\.example\.top" has no protocol; rule skipped/.test(w)), warnings.join('\n'));
  assert.ok(warnings.some((w) => /protocols\.txt:16: .*more than two fields/.test(w)));
  assert.ok(warnings.some((w) => /protocols\.txt:18: "@mail" is not a valid protocol/.test(w)));
  assert.ok(warnings.some((w) => /protocols\.txt:12: "https" has no protocol/.test(w)));
});

test('inline urlnormalizer.protocols.rules take precedence over the file', async () => {
  const { out } = await run(['http://inline.org/', 'https://example.org/'], { 'urlnormalizer.protocols.rules': 'inline.org https' });
  assert.deepEqual(out, ['https://inline.org/', 'https://example.org/']);
});

test('the shipped conf/protocols.txt has no rules: nothing changes', async () => {
  const { out } = await run(['http://example.org/', 'https://example.com/'], {}, {});
  assert.deepEqual(out, ['http://example.org/', 'https://example.com/']);
});

test('a missing rule file is a configuration error naming the property', async () => {
  await assert.rejects(run(['http://a.org/'], { 'urlnormalizer.protocols.file': 'none.txt' }, {}), (err: { code?: string; message: string }) => {
    assert.equal(err.code, 'NUTCH_CONFIG_FILE_NOT_FOUND');
    assert.match(err.message, /none\.txt.*urlnormalizer\.protocols\.file/);
    return true;
  });
});

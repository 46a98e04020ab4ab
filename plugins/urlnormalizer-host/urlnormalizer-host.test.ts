/** urlnormalizer-host through the real PluginRepository, with Nutch's test data/hosts.txt. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestContext, runURLNormalizer } from '../../sdk/testing.js';

const pluginDir = dirname(fileURLToPath(import.meta.url));

// Nutch's src/plugin/urlnormalizer-host/data/hosts.txt, plus a few rules of ours.
const HOSTS = [
  '# Force all sub domains to www.', '*.example.com example.com', '', '# Force no sub domain to www. URL\'s',
  'www.example.net example.net', '', '# Force www. sub domain when hitting link without sub domain', 'example.org www.example.org',
  '*.sub.example.edu sub.example.edu', '*.example.edu www.example.edu', 'Mixed.Example.Info\tmixed.example.info', 'lonely.example.top', '*.a.example.info Target.Example.Info', 'www.b\u00fccher.de b\u00fccher.de', '',
].join('\n');

async function run(urls: string[], config: Record<string, unknown> = {}, files: Record<string, string> = { 'host-urlnormalizer.txt': HOSTS }) {
  const dir = mkdtempSync(join(tmpdir(), 'urlnormalizer-host-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const ctx = createTestContext({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, includeBuiltins: false, pluginFolders: [pluginDir], config: { 'plugin.includes': 'urlnormalizer-host', ...config } });
  try {
    const out = await runURLNormalizer(ctx, urls, { extensionId: 'urlnormalizer-host' });
    return { out, warnings: ctx.log.records.filter((r) => r.level === 'warn').map((r) => r.msg) };
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const cases: [string, string][] = [
  // Nutch TestHostURLNormalizer
  ['http://example.org/page.html', 'http://www.example.org/page.html'],
  ['http://www.example.net/path/to/something.html', 'http://example.net/path/to/something.html'],
  ['http://example.com/?does=it&still=work', 'http://example.com/?does=it&still=work'],
  ['http://http.www.example.com/buh', 'http://example.com/buh'],
  ['http://whatever.example.com/blaat', 'http://example.com/blaat'],
  // ports, user info, query and fragment are kept
  ['http://example.org:8080/x', 'http://www.example.org:8080/x'],
  ['https://user@example.org/x?y#z', 'https://user@www.example.org/x?y#z'],
  ['http://example.org', 'http://www.example.org'],
  ['http://example.org?q=example.org', 'http://www.example.org?q=example.org'],
  // wildcard rules: shortest domain first, as Nutch's loop
  ['http://a.sub.example.edu/', 'http://www.example.edu/'],
  ['http://sub.example.edu/', 'http://www.example.edu/'],
  ['http://example.edu/', 'http://example.edu/'],
  // host lookup ignores case; rules are lower-cased
  ['http://EXAMPLE.ORG/Page', 'http://www.example.org/Page'],
  ['http://mixed.example.info/', 'http://mixed.example.info/'],
  // unlisted and unparsable input passes unchanged
  ['http://www.example.org/', 'http://www.example.org/'],
  ['http://example.de/', 'http://example.de/'],
  ['http://lonely.example.top/', 'http://lonely.example.top/'],
  ['http://[::1]/', 'http://[::1]/'],
  ['not a url', 'not a url'],
  // a wildcard on a longer suffix only: never the whole host itself
  ['http://x.a.example.info/p', 'http://target.example.info/p'],
  ['http://y.x.a.example.info/', 'http://target.example.info/'],
  ['http://a.example.info/', 'http://a.example.info/'],
  ['http://b.example.info/', 'http://b.example.info/'],
  // IDN hosts map like any other
  ['http://www.b\u00fccher.de/buch', 'http://b\u00fccher.de/buch'],
  // the replaced host is the authority's, never a same string elsewhere in the URL
  ['http://example.org/example.org/', 'http://www.example.org/example.org/'],
  ['http://example.org@evil.test/', 'http://example.org@evil.test/'],
  ['http://www.example.net:81/?r=www.example.net', 'http://example.net:81/?r=www.example.net'],
  ['https://deep.sub.example.com/x#y', 'https://example.com/x#y'],
  ['http://example.com./', 'http://example.com./'],
];

test('Nutch hosts.txt: table of URLs', async () => {
  const { out } = await run(cases.map((c) => c[0]));
  cases.forEach(([input, expected], i) => assert.equal(out[i], expected, input));
});

test('a rule line without a target is skipped with a warning naming file and line', async () => {
  const { warnings } = await run(['http://example.org/']);
  assert.ok(warnings.some((w) => /host-urlnormalizer\.txt:12: expected "<host> <target host>", got "lonely\.example\.top"/.test(w)), warnings.join('\n'));
});

test('inline urlnormalizer.hosts.rules take precedence over the file', async () => {
  const { out } = await run(['http://a.test/', 'http://example.org/'], { 'urlnormalizer.hosts.rules': 'a.test b.test' });
  assert.deepEqual(out, ['http://b.test/', 'http://example.org/']);
});

test('the shipped conf/host-urlnormalizer.txt has no rules: nothing changes', async () => {
  const { out } = await run(['http://example.org/', 'http://www.example.net/'], {}, {});
  assert.deepEqual(out, ['http://example.org/', 'http://www.example.net/']);
});

test('a missing rule file is a configuration error naming the property', async () => {
  await assert.rejects(run(['http://a.org/'], { 'urlnormalizer.hosts.file': 'none.txt' }, {}), (err: { code?: string; message: string }) => {
    assert.equal(err.code, 'NUTCH_CONFIG_FILE_NOT_FOUND');
    assert.match(err.message, /urlnormalizer\.hosts\.file/);
    return true;
  });
});

/** urlnormalizer-ajax: Nutch's AjaxURLNormalizer cases, through the real plugin repository. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { URLNormalizer } from '../../sdk/plugin.js';
import { fixtureContext } from '../../tests/helpers/context.js';

const cases: { name: string; scope: string; input: string; output: string }[] = [
  { name: 'hashbang to escaped fragment', scope: 'default', input: 'http://example.com/#!key=value', output: 'http://example.com/?_escaped_fragment_=key=value' },
  { name: 'after an existing query', scope: 'fetcher', input: 'http://example.com/page?x=1#!key=value', output: 'http://example.com/page?x=1&_escaped_fragment_=key=value' },
  { name: 'reserved characters escaped', scope: 'outlink', input: 'http://example.com/#!a b&c=1+2%3#x', output: 'http://example.com/?_escaped_fragment_=a%20b%26c=1%2B2%253%23x' },
  { name: 'non-ASCII as UTF-8 bytes', scope: 'default', input: 'http://example.com/#!caf\u00e9', output: 'http://example.com/?_escaped_fragment_=caf%C3%A9' },
  { name: 'empty state', scope: 'default', input: 'http://example.com/app#!', output: 'http://example.com/app?_escaped_fragment_=' },
  { name: 'a plain fragment is left alone', scope: 'default', input: 'http://example.com/#section', output: 'http://example.com/#section' },
  { name: 'no fragment', scope: 'default', input: 'http://example.com/a?b=c', output: 'http://example.com/a?b=c' },
  { name: 'indexer: back to the pretty URL', scope: 'indexer', input: 'http://example.com/?_escaped_fragment_=key=value', output: 'http://example.com/#!key=value' },
  { name: 'indexer: other parameters kept', scope: 'indexer', input: 'http://example.com/p?x=1&_escaped_fragment_=a%20b%26c&y=2', output: 'http://example.com/p?x=1&y=2#!a b&c' },
  { name: 'indexer: a pretty URL is not touched', scope: 'indexer', input: 'http://example.com/#!key=value', output: 'http://example.com/#!key=value' },
];

test('urlnormalizer-ajax: Nutch\'s cases, scope by scope', (t) => {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'urlnormalizer-ajax' } });
  return (async () => {
    const ext = ctx.plugins.findExtension('URLNormalizer', 'org.apache.nutch.net.urlnormalizer.ajax.AjaxURLNormalizer');
    assert.equal(ext?.id, 'urlnormalizer-ajax');
    const n = (await ctx.plugins.getInstance(ext!)) as URLNormalizer;
    for (const c of cases) assert.equal(n.normalize(c.input, c.scope), c.output, c.name);
    // the round trip: what the fetcher requested is indexed under the address users know
    const ugly = n.normalize('http://example.com/shop?id=7#!product/42 red', 'fetcher')!;
    assert.equal(n.normalize(ugly, 'indexer'), 'http://example.com/shop?id=7#!product/42 red');
  })();
});

test('urlnormalizer-ajax in the outlink chain: normalizerchecker shows the escaped fragment', async (t) => {
  const { runNutch } = await import('../../tests/helpers/cli.js');
  const { tempDir } = await import('../../tests/helpers/temp-dir.js');
  const cwd = tempDir(t);
  const r = await runNutch(['normalizerchecker', '-normalizer', 'urlnormalizer-ajax', '-scope', 'outlink', '-D', 'plugin.includes.add=urlnormalizer-ajax'], { cwd, stdin: 'http://example.com/app#!page=2\n' });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /http:\/\/example\.com\/app\?_escaped_fragment_=page=2/);
});

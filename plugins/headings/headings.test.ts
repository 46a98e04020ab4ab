/** headings: the cases of Nutch's TestHeadingsParseFilter (first heading, multivalued, nested markup), then a real crawl. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createContent, type Metadata } from '../../sdk/plugin.js';
import { ParseUtil } from '../../core/parse/parse-util.js';
import { fixtureContext } from '../../tests/helpers/context.js';
import { indexCrawl } from '../../tests/helpers/index-crawl.js';

const PAGE = `<html><head><title>T</title></head><body>
<h1>First   <b>heading</b></h1><p>x</p><h2>Sub one</h2><h1>Second heading</h1><h2> </h2><div><h2>Sub <i>two</i><script>ignored()</script></h2></div><h3>Third level</h3>
</body></html>`;

async function parseMeta(t: TestContext, defines: Record<string, string>): Promise<Metadata> {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'parse-html|headings', ...defines } });
  const util = await ParseUtil.create(ctx.extensions, ctx.conf, ctx.log);
  const url = 'http://example.com/h.html';
  const out = await util.parse(createContent({ url, content: new TextEncoder().encode(PAGE), contentType: 'text/html' }));
  return out.result.parses[url]!.data.parseMeta;
}

test('headings: first of each kind by default, every one with headings.multivalued; markup and whitespace collapsed', async (t) => {
  const cases: { name: string; defines: Record<string, string>; expected: Record<string, string[] | undefined> }[] = [
    { name: 'defaults (h1,h2, first only)', defines: {}, expected: { h1: ['First heading'], h2: ['Sub one'], h3: undefined } },
    { name: 'multivalued, empty headings skipped, scripts not text', defines: { 'headings.multivalued': 'true' }, expected: { h1: ['First heading', 'Second heading'], h2: ['Sub one', 'Sub two'] } },
    { name: 'headings=h3', defines: { headings: 'H3' }, expected: { h1: undefined, h3: ['Third level'] } },
  ];
  for (const c of cases) {
    const md = await parseMeta(t, c.defines);
    for (const [k, v] of Object.entries(c.expected)) assert.deepEqual(md[k], v, `${c.name}: ${k}`);
  }
});

test('headings + index-metadata in a real crawl: h1 and h2 become fields', async (t) => {
  const { web, docs } = await indexCrawl(t, {
    files: { '/h.html': { contentType: 'text/html', body: PAGE } },
    seeds: (w) => [w.url(0, '/h.html')],
    plugins: 'headings|index-metadata',
    site: { 'index.parse.md': 'h1,h2' },
  });
  const doc = docs.get(web.url(0, '/h.html'));
  assert.deepEqual([doc?.fields.h1, doc?.fields.h2], [['First heading'], ['Sub one']]);
});

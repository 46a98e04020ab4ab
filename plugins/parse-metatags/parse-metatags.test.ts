/** parse-metatags: the cases Nutch's TestMetaTagsParser implies, through parse-html's filter chain, then a real crawl. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createContent, type Metadata } from '../../sdk/plugin.js';
import { ParseUtil } from '../../core/parse/parse-util.js';
import { fixtureContext } from '../../tests/helpers/context.js';
import { indexCrawl } from '../../tests/helpers/index-crawl.js';

const PAGE = `<html><head><title>Metas</title>
<meta name="Description" content="A page about quays">
<meta name="keywords" content="harbour, quay">
<meta name="keywords" content="tide">
<meta name="author" content="Ann Writer">
<meta http-equiv="Content-Language" content="fr">
</head><body><meta name="late" content="in body">Text</body></html>`;

async function parseMeta(t: TestContext, defines: Record<string, string>, html = PAGE): Promise<Metadata> {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'parse-html|parse-metatags', ...defines } });
  const util = await ParseUtil.create(ctx.extensions, ctx.conf, ctx.log);
  const url = 'http://example.com/metas.html';
  const out = await util.parse(createContent({ url, content: new TextEncoder().encode(html), contentType: 'text/html' }));
  return out.result.parses[url]!.data.parseMeta;
}

const metatags = (md: Metadata) => Object.fromEntries(Object.entries(md).filter(([k]) => k.startsWith('metatag.')).sort(([a], [b]) => a.localeCompare(b)));

test('parse-metatags: metatags.names selects tags ignoring case; every value kept; http-equiv too; body metas ignored', async (t) => {
  const cases: { name: string; names?: string; expected: Record<string, string[]> }[] = [
    { name: "Nutch's default: description and keywords", expected: { 'metatag.description': ['A page about quays'], 'metatag.keywords': ['harbour, quay', 'tide'] } },
    { name: 'names matched ignoring case', names: 'DESCRIPTION', expected: { 'metatag.description': ['A page about quays'] } },
    { name: "Nutch 1.x's older ';' separator", names: 'author;content-language', expected: { 'metatag.author': ['Ann Writer'], 'metatag.content-language': ['fr'] } },
    { name: 'a name no tag has', names: 'robots', expected: {} },
    {
      name: "'*': every meta tag (and what the parser stored, as Nutch)",
      names: '*',
      expected: {
        'metatag.author': ['Ann Writer'], 'metatag.charencodingforconversion': ['windows-1252'], 'metatag.content-language': ['fr'], 'metatag.description': ['A page about quays'],
        'metatag.keywords': ['harbour, quay', 'tide'], 'metatag.originalcharencoding': ['windows-1252'],
      },
    },
  ];
  for (const c of cases) {
    const md = await parseMeta(t, c.names === undefined ? {} : { 'metatags.names': c.names });
    assert.deepEqual(metatags(md), c.expected, c.name);
  }
});

test('parse-metatags: without the plugin, parse-html stores no metatag.* (as Nutch\'s HtmlParser)', async (t) => {
  const md = await parseMeta(t, { 'plugin.includes': 'parse-html' });
  assert.deepEqual(metatags(md), {});
});

test('parse-metatags + index-metadata in a real crawl: description and keywords become fields', async (t) => {
  const { web, docs } = await indexCrawl(t, {
    files: { '/metas.html': { contentType: 'text/html', body: PAGE } },
    seeds: (w) => [w.url(0, '/metas.html')],
    plugins: 'parse-metatags|index-metadata',
    site: { 'index.parse.md': 'metatag.description,metatag.keywords' },
  });
  const doc = docs.get(web.url(0, '/metas.html'));
  assert.ok(doc, `indexed: ${[...docs.keys()].join(' ')}`);
  assert.deepEqual(doc.fields['metatag.description'], ['A page about quays']);
  assert.deepEqual(doc.fields['metatag.keywords'], ['harbour, quay', 'tide']);
  assert.equal(doc.fields['metatag.author'], undefined);
});

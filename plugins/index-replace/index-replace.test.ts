/** index-replace: the cases of Nutch's TestIndexReplace (global, hostmatch, urlmatch, target fields, flags), bad lines, then a real crawl. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createDocument, createParseData, type FieldValue, type IndexingFilter } from '../../sdk/plugin.js';
import { fixtureContext } from '../../tests/helpers/context.js';
import { indexCrawl } from '../../tests/helpers/index-crawl.js';

async function replacer(t: TestContext, rules: string) {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'index-replace', 'index.replace.regexp': rules } });
  return ctx.plugins.getInstance<IndexingFilter>(ctx.plugins.findExtension('IndexingFilter', 'org.apache.nutch.indexer.replace.ReplaceIndexer')!);
}

const DESCRIPTION = 'With this plugin, I control the description! Bwuhuhuhaha!';

async function run(f: IndexingFilter, fields: Record<string, FieldValue[]>) {
  const doc = createDocument();
  doc.fields = { ...fields };
  const parse = { text: '', data: createParseData({}), isCanonical: true };
  return (await f.filter(doc, { url: String(fields.url?.[0] ?? ''), parse, dbDatum: null, fetchDatum: null, inlinks: null }))!.fields;
}

const base = { host: ['www.example.com'], url: ['http://www.example.com/page.html'], 'metatag.description': [DESCRIPTION], title: ['Example Title'] };

test('index-replace: instructions, match sets and targets', async (t) => {
  const cases: { name: string; rules: string; expect: Record<string, FieldValue[] | undefined> }[] = [
    { name: 'global replacement', rules: 'metatag.description=/this(.*)plugin/this awesome plugin/', expect: { 'metatag.description': ['With this awesome plugin, I control the description! Bwuhuhuhaha!'] } },
    { name: 'several lines, in order, any separator', rules: 'title=/Example/Sample/\ntitle=|Sample|Simple|', expect: { title: ['Simple Title'] } },
    { name: 'Java flags 2: case-insensitive', rules: 'title=/EXAMPLE/Ex/2', expect: { title: ['Ex Title'] } },
    { name: 'without flags case matters', rules: 'title=/EXAMPLE/Ex/', expect: { title: ['Example Title'] } },
    { name: 'group references, Java syntax', rules: 'title=/(\\w+) (\\w+)/$2, $1/', expect: { title: ['Title, Example'] } },
    { name: 'a target field keeps the source', rules: 'title:shorttitle=/ Title$//', expect: { title: ['Example Title'], shorttitle: ['Example'] } },
    { name: 'hostmatch that matches', rules: 'hostmatch=.*\\.example\\.com\ntitle=/Example/Matched/', expect: { title: ['Matched Title'] } },
    { name: 'hostmatch that does not match', rules: 'hostmatch=.*\\.other\\.org\ntitle=/Example/Matched/', expect: { title: ['Example Title'] } },
    { name: 'urlmatch', rules: 'urlmatch=page\\.html$\ntitle=/Example/ByUrl/', expect: { title: ['ByUrl Title'] } },
    { name: 'urlmatch not matching, then a global hostmatch', rules: 'urlmatch=nope\ntitle=/Example/ByUrl/\nhostmatch=example\ntitle=/Example/ByHost/', expect: { title: ['ByHost Title'] } },
    { name: 'a missing field is left alone', rules: 'keywords=/a/b/', expect: { keywords: undefined, title: ['Example Title'] } },
  ];
  for (const c of cases) {
    const fields = await run(await replacer(t, c.rules), base);
    for (const [k, v] of Object.entries(c.expect)) assert.deepEqual(fields[k], v, `${c.name}: ${k}`);
  }
});

test('index-replace: bad lines are named with the property and line', async (t) => {
  const cases: [string, RegExp][] = [
    ['title=/x/y/\ntitle', /index\.replace\.regexp line 2: expected name=value/],
    ['title=/unclosed', /line 1: missing the closing separator "\/"/],
    ['title=/a/b/zz', /line 1: the flags "zz" are not a number/],
    ['title=/a/b/16', /flags 16 include 16, which nutch-ts does not support/],
    ['hostmatch=([a-z\ntitle=/a/b/', /line 1: hostmatch pattern does not compile/],
    ['title=/(/x/', /line 1: invalid pattern or replacement/],
    ['title=/a', /line 1: expected field=\/pattern\/replacement\/\[flags\]/],
  ];
  for (const [rules, message] of cases) await assert.rejects(replacer(t, rules), (err: Error & { code?: string }) => err.code === 'NUTCH_CONFIG_INVALID_VALUE' && message.test(err.message), rules);
});

test('index-replace in a real crawl: the title and a copied field rewritten per host', async (t) => {
  const { web, docs } = await indexCrawl(t, {
    files: { '/p.html': { contentType: 'text/html', body: '<html><head><title>Harbour | Example Site</title></head><body>x</body></html>' } },
    seeds: (w) => [w.url(0, '/p.html')],
    plugins: 'index-replace',
    site: { 'index.replace.regexp': 'hostmatch=^127\\.0\\.0\\.\ntitle=/ \\| Example Site$//\ntitle:brand=/^.*$/example/' },
  });
  const doc = docs.get(web.url(0, '/p.html'));
  assert.deepEqual(doc?.fields.title, ['Harbour']);
  assert.deepEqual(doc?.fields.brand, ['example']);
});

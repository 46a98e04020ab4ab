/** subcollection: the cases of Nutch's TestSubcollection, the file's errors, then a real crawl. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { createDocument, createParseData, type IndexingFilter } from '../../sdk/plugin.js';
import { fixtureContext } from '../../tests/helpers/context.js';
import { indexCrawl } from '../../tests/helpers/index-crawl.js';

const XML = `<?xml version="1.0"?>
<subcollections>
  <subcollection><name>docs</name><id>d</id>
    <whitelist>http://www.example.com/docs/
http://wiki.example.org/</whitelist>
    <blacklist>/docs/private/</blacklist>
  </subcollection>
  <subcollection><name>all example</name><id>e</id><whitelist>example.com</whitelist><blacklist/></subcollection>
  <subcollection><name>Tagged</name><key>section</key><whitelist>/News/</whitelist></subcollection>
</subcollections>`;

async function filterWith(t: TestContext, xml: string, defines: Record<string, string> = {}) {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'subcollection', ...defines } });
  writeFileSync(join(ctx.conf.confDirs[0]!, 'subcollections.xml'), xml);
  return ctx.plugins.getInstance<IndexingFilter>(ctx.plugins.findExtension('IndexingFilter', 'org.apache.nutch.indexer.subcollection.SubcollectionIndexingFilter')!);
}

async function fields(f: IndexingFilter, url: string, parseMeta: Record<string, string[]> = {}) {
  const parse = { text: '', data: createParseData({ parseMeta }), isCanonical: true };
  return (await f.filter(createDocument(), { url, parse, dbDatum: null, fetchDatum: null, inlinks: null }))!.fields;
}

test('subcollection: whitelist substrings, blacklist first, several collections, <key>, case', async (t) => {
  const f = await filterWith(t, XML);
  const cases: [string, Record<string, string[]>][] = [
    ['http://www.example.com/docs/intro.html', { subcollection: ['docs', 'all example'] }],
    ['http://www.example.com/docs/private/x.html', { subcollection: ['all example'] }],
    ['http://wiki.example.org/Page', { subcollection: ['docs'] }],
    ['http://www.example.com/News/today', { subcollection: ['all example'], section: ['Tagged'] }],
    ['http://www.example.com/news/today', { subcollection: ['all example'] }],
    ['http://elsewhere.net/', {}],
  ];
  for (const [url, expected] of cases) assert.deepEqual(await fields(f, url), expected, url);
  assert.deepEqual(await fields(f, 'http://elsewhere.net/', { subcollection: [' manual '] }), { subcollection: ['manual'] }, 'subcollection.metadata.source overrides the lists');

  const ci = await filterWith(t, XML, { 'subcollection.case.insensitive': 'true', 'subcollection.default.fieldname': 'collection' });
  assert.deepEqual(await fields(ci, 'HTTP://WWW.EXAMPLE.COM/news/today'), { collection: ['all example'], section: ['Tagged'] });
});

test('subcollection: a file that is not subcollections is named', async (t) => {
  await assert.rejects(filterWith(t, '<collections/>'), /subcollections\.xml: the root element must be <subcollections>, found <collections>/);
  await assert.rejects(filterWith(t, '<subcollections><subcollection><whitelist>x</whitelist></subcollection></subcollections>'), /subcollections\.xml: <subcollection> number 1 has no <name>/);
});

test('subcollection in a real crawl: documents tagged by their URLs', async (t) => {
  const page = { contentType: 'text/html', body: '<html><body>page</body></html>' };
  const { web, docs } = await indexCrawl(t, {
    files: { '/docs/a.html': page, '/blog/b.html': page },
    seeds: (w) => [w.url(0, '/docs/a.html'), w.url(0, '/blog/b.html')],
    plugins: 'subcollection',
    conf: () => ({ 'subcollections.xml': '<subcollections><subcollection><name>documentation</name><whitelist>/docs/</whitelist></subcollection></subcollections>' }),
  });
  assert.deepEqual(docs.get(web.url(0, '/docs/a.html'))?.fields.subcollection, ['documentation']);
  assert.ok(docs.has(web.url(0, '/blog/b.html')));
  assert.equal(docs.get(web.url(0, '/blog/b.html'))?.fields.subcollection, undefined);
});

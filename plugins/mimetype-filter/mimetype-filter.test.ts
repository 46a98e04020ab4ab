/** mimetype-filter: the cases of Nutch's MimeTypeIndexingFilterTest (allow-images, block-html) and more, then a real crawl. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { createCrawlDatum, createDocument, createParseData, CrawlStatus, type IndexingFilter } from '../../sdk/plugin.js';
import { fixtureContext, logged } from '../../tests/helpers/context.js';
import { indexCrawl } from '../../tests/helpers/index-crawl.js';

async function filterWith(t: TestContext, rules: string | null) {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'mimetype-filter', ...(rules === null ? { 'mimetype.filter.file': '' } : {}) } });
  if (rules !== null) writeFileSync(join(ctx.conf.confDirs[0]!, 'mimetype-filter.txt'), rules);
  const filter = await ctx.plugins.getInstance<IndexingFilter>(ctx.plugins.findExtension('IndexingFilter', 'org.apache.nutch.indexer.filter.MimeTypeIndexingFilter')!);
  return { ctx, filter };
}

async function indexed(f: IndexingFilter, contentType: string | null, url = 'http://example.com/', datumType?: string): Promise<boolean> {
  const parse = { text: '', data: createParseData({ contentMeta: contentType === null ? {} : { 'Content-Type': [contentType] } }), isCanonical: true };
  const fetchDatum = datumType ? createCrawlDatum({ status: CrawlStatus.STATUS_FETCH_SUCCESS, metaData: { 'Content-Type': [datumType] } }) : null;
  return (await f.filter(createDocument(), { url, parse, dbDatum: null, fetchDatum, inlinks: null })) !== null;
}

const TYPES = ['text/html', 'text/html; charset=UTF-8', 'image/png', 'image/jpeg', 'application/pdf', 'TEXT/PLAIN'];

test('mimetype-filter: reject mode lists what is indexed; accept mode lists what is not; prefixes, no regex', async (t) => {
  const cases: { name: string; rules: string; accepted: boolean[] }[] = [
    { name: 'allow-images (-, image)', rules: '# comment\n-\n\nimage\n', accepted: [false, false, true, true, false, false] },
    { name: 'block-html (+, text/html)', rules: '+\ntext/html\n', accepted: [false, false, true, true, true, true] },
    { name: 'no mode line: accept mode', rules: 'application/pdf\n', accepted: [true, true, true, true, false, true] },
    { name: 'the last mode line wins', rules: '+\n-\ntext/\n', accepted: [true, true, false, false, false, true] },
    { name: 'a dot is no wildcard', rules: '-\ntext/htm.\n', accepted: [false, false, false, false, false, false] },
    { name: 'lines starting with a space are comments', rules: '-\n image\ntext/plain\n', accepted: [false, false, false, false, false, true] },
  ];
  for (const c of cases) {
    const { filter } = await filterWith(t, c.rules);
    const got = [];
    for (const type of TYPES) got.push(await indexed(filter, type));
    assert.deepEqual(got, c.accepted, c.name);
  }
});

test('mimetype-filter: the type comes from the CrawlDatum, else the page, else the URL', async (t) => {
  const { filter } = await filterWith(t, '-\ntext/html\n');
  assert.equal(await indexed(filter, 'application/pdf', 'http://example.com/a', 'text/html'), true, "the datum's Content-Type first");
  assert.equal(await indexed(filter, null, 'http://example.com/page.html'), true, 'by extension');
  assert.equal(await indexed(filter, null, 'http://example.com/file.pdf?x=1'), false);
  assert.equal(await indexed(filter, null, 'http://example.com/noext'), false, 'unknown: application/octet-stream');
});

test('mimetype-filter: an empty mimetype.filter.file indexes everything with a warning; a bad mode line is named', async (t) => {
  const { ctx, filter } = await filterWith(t, null);
  assert.equal(await indexed(filter, 'image/png'), true);
  assert.match(logged(ctx).join('\n'), /mimetype.filter.file is empty/);
  await assert.rejects(filterWith(t, '# x\n-images\n'), (err: Error & { code?: string }) => err.code === 'NUTCH_RULE_FILE_INVALID' && /mimetype-filter\.txt:2: a mode line is/.test(err.message));
});

test('mimetype-filter in a real crawl with the shipped rules: only text/html is indexed', async (t) => {
  const { web, docs, crawl } = await indexCrawl(t, {
    files: {
      '/page.html': { contentType: 'text/html; charset=utf-8', body: '<html><head><title>Page</title></head><body>Harbour page</body></html>' },
      '/notes.txt': { contentType: 'text/plain', body: 'Harbour notes in plain text' },
    },
    seeds: (w) => [w.url(0, '/page.html'), w.url(0, '/notes.txt')],
    plugins: 'mimetype-filter',
  });
  assert.deepEqual([...docs.keys()], [web.url(0, '/page.html')]);
  assert.match(crawl.stdout, /skipped \(IndexingFilter\)=1\b/);
});

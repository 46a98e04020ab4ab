/** urlmeta: the scoring and indexing halves method by method (Nutch's TestURLMeta* cases), then a real crawl from tagged seeds. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createContent, createCrawlDatum, createDocument, createParseData, CrawlStatus, type IndexingFilter, type ScoringFilter } from '../../sdk/plugin.js';
import { fixtureContext } from '../../tests/helpers/context.js';
import { indexCrawl } from '../../tests/helpers/index-crawl.js';

async function urlmeta(t: TestContext, tags: string) {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'urlmeta', 'urlmeta.tags': tags } });
  const scoring = await ctx.plugins.getInstance<Required<ScoringFilter>>(ctx.plugins.findExtension('ScoringFilter', 'org.apache.nutch.scoring.urlmeta.URLMetaScoringFilter')!);
  const indexing = await ctx.plugins.getInstance<IndexingFilter>(ctx.plugins.findExtension('IndexingFilter', 'org.apache.nutch.indexer.urlmeta.URLMetaIndexingFilter')!);
  return { scoring, indexing };
}

test('urlmeta: the listed keys travel datum -> content -> parse -> outlinks, and are indexed', async (t) => {
  const { scoring, indexing } = await urlmeta(t, 'customer, campaign');
  const seed = createCrawlDatum({ status: CrawlStatus.STATUS_DB_FETCHED, metaData: { customer: ['acme'], campaign: ['spring', 'ignored second'], other: ['x'] } });
  const content = createContent({ url: 'http://a/', contentType: 'text/html' });
  scoring.passScoreBeforeParsing('http://a/', seed, content);
  assert.deepEqual(content.metadata, { customer: ['acme'], campaign: ['spring'] }, 'only the listed keys, one value each');
  const parse = { text: '', data: createParseData({}), isCanonical: true };
  scoring.passScoreAfterParsing('http://a/', content, parse);
  assert.deepEqual(parse.data.parseMeta, { customer: ['acme'], campaign: ['spring'] });
  const targets = ['http://a/1', 'http://b/2'].map((url) => ({ url, datum: createCrawlDatum({ status: CrawlStatus.STATUS_LINKED, metaData: { campaign: ['old'] } }) }));
  const adjust = scoring.distributeScoreToOutlinks('http://a/', parse.data, targets, null, 2);
  assert.equal(adjust, null);
  for (const target of targets) assert.deepEqual(target.datum.metaData, { campaign: ['spring'], customer: ['acme'] }, target.url);

  const doc = await indexing.filter(createDocument(), { url: 'http://a/1', parse, dbDatum: targets[0]!.datum, fetchDatum: null, inlinks: null });
  assert.deepEqual(doc!.fields, { customer: ['acme'], campaign: ['spring'] });
  const untagged = await indexing.filter(createDocument(), { url: 'http://c/', parse, dbDatum: createCrawlDatum({ status: CrawlStatus.STATUS_DB_FETCHED }), fetchDatum: null, inlinks: null });
  assert.deepEqual(untagged!.fields, {}, 'a page without the keys gets no field');
});

test('urlmeta: without urlmeta.tags nothing moves', async (t) => {
  const { scoring } = await urlmeta(t, '');
  const content = createContent({ url: 'http://a/' });
  scoring.passScoreBeforeParsing('http://a/', createCrawlDatum({ status: 2, metaData: { customer: ['acme'] } }), content);
  assert.deepEqual(content.metadata, {});
});

test('urlmeta in a real crawl: every page reached from a tagged seed is indexed with its seed\'s value', async (t) => {
  const page = (body: string) => ({ contentType: 'text/html', body: `<html><body>${body}</body></html>` });
  const { web, docs } = await indexCrawl(t, {
    files: { '/a.html': page('<a href="/b.html">b</a>'), '/b.html': page('<a href="/c.html">c</a>'), '/c.html': page('end'), '/z.html': page('other seed') },
    seeds: (w) => [`${w.url(0, '/a.html')}\tcustomer=acme`, `${w.url(0, '/z.html')}\tcustomer=zeta`],
    plugins: 'urlmeta',
    rounds: 3,
    site: { 'urlmeta.tags': 'customer', 'db.ignore.internal.links': false },
  });
  const customer = (path: string) => docs.get(web.url(0, path))?.fields.customer;
  assert.deepEqual([customer('/a.html'), customer('/b.html'), customer('/c.html'), customer('/z.html')], [['acme'], ['acme'], ['acme'], ['zeta']]);
});

/** index-links: the cases of Nutch's TestLinksIndexingFilter, then a real crawl with a LinkDb. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createDocument, createParseData, type IndexingFilter } from '../../sdk/plugin.js';
import { fixtureContext } from '../../tests/helpers/context.js';
import { indexCrawl } from '../../tests/helpers/index-crawl.js';

async function filterWith(t: TestContext, defines: Record<string, string> = {}) {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'index-links', ...defines } });
  return ctx.plugins.getInstance<IndexingFilter>(ctx.plugins.findExtension('IndexingFilter', 'org.apache.nutch.indexer.links.LinksIndexingFilter')!);
}

const PAGE = 'http://www.example.com/page.html';
const OUT = ['http://www.example.com/a', 'http://www.other.com/x', 'http://www.other.com/y', 'http://www.example.com/a'];
const IN = ['http://www.example.com/from', 'http://www.third.org/p1', 'http://www.third.org/p2'];

async function run(f: IndexingFilter, inlinks: string[] | null = IN) {
  const parse = { text: '', data: createParseData({ outlinks: OUT.map((toUrl) => ({ toUrl, anchor: '' })) }), isCanonical: true };
  const doc = await f.filter(createDocument(), { url: PAGE, parse, dbDatum: null, fetchDatum: null, inlinks: inlinks && { inlinks: inlinks.map((fromUrl) => ({ fromUrl, anchor: 'a' })) } });
  return { outlinks: doc!.fields.outlinks, inlinks: doc!.fields.inlinks };
}

test('index-links: outlinks and inlinks fields under each setting', async (t) => {
  const cases: { name: string; defines: Record<string, string>; outlinks: string[] | undefined; inlinks: string[] | undefined }[] = [
    { name: 'defaults: every link, in order, repeats kept', defines: {}, outlinks: OUT, inlinks: IN },
    { name: 'outlinks.host.ignore', defines: { 'index.links.outlinks.host.ignore': 'true' }, outlinks: ['http://www.other.com/x', 'http://www.other.com/y'], inlinks: IN },
    { name: 'inlinks.host.ignore', defines: { 'index.links.inlinks.host.ignore': 'true' }, outlinks: OUT, inlinks: ['http://www.third.org/p1', 'http://www.third.org/p2'] },
    { name: 'hosts.only: each host once', defines: { 'index.links.hosts.only': 'true' }, outlinks: ['www.example.com', 'www.other.com'], inlinks: ['www.example.com', 'www.third.org'] },
    { name: 'hosts.only and both host.ignore', defines: { 'index.links.hosts.only': 'true', 'index.links.outlinks.host.ignore': 'true', 'index.links.inlinks.host.ignore': 'true' }, outlinks: ['www.other.com'], inlinks: ['www.third.org'] },
  ];
  for (const c of cases) assert.deepEqual(await run(await filterWith(t, c.defines)), { outlinks: c.outlinks, inlinks: c.inlinks }, c.name);
  assert.equal((await run(await filterWith(t), null)).inlinks, undefined, 'no LinkDb: no inlinks field');
});

test('index-links in a real crawl: outlinks from the parse, inlinks from the LinkDb', async (t) => {
  const { web, docs } = await indexCrawl(t, {
    files: {
      '/a.html': { contentType: 'text/html', body: '<html><body><a href="/b.html">to b</a> <a href="http://127.0.0.3:1/ext">out</a></body></html>' },
      '/b.html': { contentType: 'text/html', body: '<html><body>b has no links</body></html>' },
    },
    seeds: (w) => [w.url(0, '/a.html')],
    plugins: 'index-links',
    rounds: 2,
    site: { 'db.ignore.internal.links': false, 'linkdb.ignore.internal.links': false },
  });
  const a = docs.get(web.url(0, '/a.html'));
  const b = docs.get(web.url(0, '/b.html'));
  assert.ok(a && b, `indexed: ${[...docs.keys()].join(' ')}`);
  assert.deepEqual(a.fields.outlinks, [web.url(0, '/b.html'), 'http://127.0.0.3:1/ext']);
  assert.deepEqual(b.fields.inlinks, [web.url(0, '/a.html')]);
  assert.equal(b.fields.outlinks, undefined);
});

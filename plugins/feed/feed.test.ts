/**
 * feed, table-driven through the real parse worker pool: RSS 2.0, RSS 1.0 (RDF) and Atom give one
 * parse per entry (text, title, outlinks, author, tag, published/updated in epoch ms, the feed's link)
 * plus the feed's own parse; feed.entry.parses=false gives entry links as outlinks instead; XML that is
 * not a feed falls through to parse-tika (conf/parse-plugins.json); FeedIndexingFilter's fields.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestContext } from '../../sdk/testing.js';
import { createContent, createDocument, createParseData, ParseStatusCode, type IndexingFilter } from '../../sdk/plugin.js';
import { parsePoolOf } from '../../core/parse/parsers.js';

function context(defines: Record<string, string> = {}) {
  return createTestContext({
    cwd: mkdtempSync(join(tmpdir(), 'feed-')),
    env: { NUTCH_CONF_DIR: join(tmpdir(), 'no-such-conf') },
    defines: { 'plugin.includes': 'parse-(html|tika)|feed', 'parser.worker.threads': '1', 'parser.timeout': '120', ...defines },
  });
}
const ctx = context();
after(() => ctx.close());

const FEED_URL = 'http://127.0.0.1:9/news/feed.xml';

async function parseFeed(body: string, contentType: string, c = ctx) {
  const out = await parsePoolOf(c).parse(createContent({ url: FEED_URL, baseUrl: FEED_URL, content: new TextEncoder().encode(body), contentType }));
  return out;
}

const RSS2 = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel><title>Harbour &amp; News</title><link>http://127.0.0.1:9/news/</link><description>All the harbour news</description>
<lastBuildDate>Tue, 10 Jun 2025 04:00:00 GMT</lastBuildDate>
<item><title>Ferry &lt;b&gt;returns&lt;/b&gt;</title><link>/news/ferry.html</link>
<description><![CDATA[<p>The ferry is back in <a href="http://127.0.0.1:9/ports/north.html">the north port</a>.</p>]]></description>
<dc:creator>Grace Hopper</dc:creator><category>transport</category><category>sea</category>
<pubDate>Mon, 09 Jun 2025 08:30:00 GMT</pubDate><guid>http://127.0.0.1:9/news/ferry.html</guid></item>
<item><title>Only a guid</title><guid isPermaLink="true">http://127.0.0.1:9/news/guid.html</guid><content:encoded><![CDATA[Encoded <em>body</em> text]]></content:encoded></item>
<item><title>No link at all</title><description>dropped</description></item>
</channel></rss>`;

const RSS1 = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="http://127.0.0.1:9/news/"><title>RDF News</title><link>http://127.0.0.1:9/news/</link><description>RSS one</description></channel>
<item rdf:about="http://127.0.0.1:9/news/rdf-item.html"><title>RDF item</title><link>http://127.0.0.1:9/news/rdf-item.html</link>
<description>An RDF description</description><dc:creator>Alan Turing</dc:creator><dc:subject>computing</dc:subject><dc:date>2025-06-09T08:30:00Z</dc:date></item>
</rdf:RDF>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom News</title><subtitle>Atom subtitle</subtitle>
<link href="http://127.0.0.1:9/news/"/><link rel="self" href="http://127.0.0.1:9/news/feed.xml"/><updated>2025-06-10T04:00:00Z</updated>
<author><name>Feed Author</name></author>
<entry><title type="html">Atom &lt;i&gt;entry&lt;/i&gt;</title><link rel="alternate" href="http://127.0.0.1:9/news/atom-entry.html"/><id>urn:uuid:1</id>
<published>2025-06-09T08:30:00Z</published><updated>2025-06-09T09:00:00Z</updated><category term="harbour"/>
<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Atom xhtml body with <a href="/ports/south.html">the south port</a></p></div></content></entry>
<entry><title>Second</title><link href="http://127.0.0.1:9/news/second.html"/><summary type="text">Plain &lt;summary&gt;</summary><author><name>Own Author</name></author></entry>
</feed>`;

const JUNE9 = String(Date.UTC(2025, 5, 9, 8, 30));

const cases = [
  {
    name: 'RSS 2.0', body: RSS2, contentType: 'application/rss+xml', feedTitle: 'Harbour & News', feedText: 'All the harbour news',
    entries: {
      'http://127.0.0.1:9/news/ferry.html': {
        title: 'Ferry returns', text: 'The ferry is back in the north port.', outlinks: [['http://127.0.0.1:9/ports/north.html', 'the north port']],
        meta: { feed: ['http://127.0.0.1:9/news/'], author: ['Grace Hopper'], tag: ['transport', 'sea'], published: [JUNE9] },
      },
      'http://127.0.0.1:9/news/guid.html': { title: 'Only a guid', text: 'Encoded body text', outlinks: [], meta: { feed: ['http://127.0.0.1:9/news/'] } },
    },
  },
  {
    name: 'RSS 1.0 (RDF)', body: RSS1, contentType: 'application/rdf+xml', feedTitle: 'RDF News', feedText: 'RSS one',
    entries: {
      'http://127.0.0.1:9/news/rdf-item.html': {
        title: 'RDF item', text: 'An RDF description', outlinks: [],
        meta: { feed: ['http://127.0.0.1:9/news/'], author: ['Alan Turing'], tag: ['computing'], published: [JUNE9] },
      },
    },
  },
  {
    name: 'Atom 1.0 served as text/xml', body: ATOM, contentType: 'text/xml', feedTitle: 'Atom News', feedText: 'Atom subtitle',
    entries: {
      'http://127.0.0.1:9/news/atom-entry.html': {
        title: 'Atom entry', text: 'Atom xhtml body with the south port', outlinks: [['http://127.0.0.1:9/ports/south.html', 'the south port']],
        meta: { feed: ['http://127.0.0.1:9/news/'], author: ['Feed Author'], tag: ['harbour'], published: [JUNE9], updated: [String(Date.UTC(2025, 5, 9, 9))] },
      },
      'http://127.0.0.1:9/news/second.html': { title: 'Second', text: 'Plain <summary>', outlinks: [], meta: { feed: ['http://127.0.0.1:9/news/'], author: ['Own Author'] } },
    },
  },
];

for (const c of cases) {
  test(`feed: ${c.name} gives the feed's parse and one parse per entry with Nutch's metadata`, async () => {
    const out = await parseFeed(c.body, c.contentType);
    assert.equal(out.parser, 'feed:parser');
    const parses = out.result.parses;
    assert.deepEqual(Object.keys(parses).sort(), [FEED_URL, ...Object.keys(c.entries)].sort());
    const feed = parses[FEED_URL]!;
    assert.equal(feed.isCanonical, true);
    assert.equal(feed.data.title, c.feedTitle);
    assert.equal(feed.text, c.feedText);
    assert.deepEqual(feed.data.outlinks, []);
    for (const [url, e] of Object.entries(c.entries)) {
      const p = parses[url]!;
      assert.equal(p.isCanonical, false, url);
      assert.equal(p.data.status.majorCode, ParseStatusCode.SUCCESS);
      assert.equal(p.data.title, e.title);
      assert.equal(p.text, e.text);
      assert.deepEqual(p.data.outlinks.map((o) => [o.toUrl, o.anchor]), e.outlinks);
      const meta = Object.fromEntries(Object.entries(p.data.parseMeta).filter(([k]) => ['feed', 'author', 'tag', 'published', 'updated'].includes(k)));
      assert.deepEqual(meta, e.meta, url);
      assert.ok(p.data.contentMeta['nutch.content.digest'], 'each entry gets a signature');
    }
  });
}

test('feed: feed.entry.parses=false lists the entry links as outlinks of the feed, anchored by their titles', async () => {
  const c = context({ 'feed.entry.parses': 'false' });
  try {
    const out = await parseFeed(RSS2, 'application/rss+xml', c);
    assert.deepEqual(Object.keys(out.result.parses), [FEED_URL]);
    assert.deepEqual(out.result.parses[FEED_URL]!.data.outlinks.map((o) => [o.toUrl, o.anchor]), [
      ['http://127.0.0.1:9/news/ferry.html', 'Ferry returns'],
      ['http://127.0.0.1:9/news/guid.html', 'Only a guid'],
    ]);
  } finally {
    await c.close();
  }
});

test('feed: XML that is not a feed goes on to parse-tika', async () => {
  const out = await parseFeed('<?xml version="1.0"?><catalog><title>Plain catalogue</title><item>one</item></catalog>', 'text/xml');
  assert.equal(out.parser, 'parse-tika');
  assert.equal(out.result.parses[FEED_URL]!.data.title, 'Plain catalogue');
});

test('feed: an RSS document served as application/octet-stream is detected and parsed as a feed', async () => {
  const out = await parseFeed(RSS2, 'application/octet-stream');
  assert.equal(out.parser, 'feed:parser');
  assert.ok(out.result.parses['http://127.0.0.1:9/news/ferry.html']);
});

test('feed: FeedIndexingFilter adds author, tag, feed, publishedDate and updatedDate', async () => {
  const filter = await ctx.plugins.getInstance<IndexingFilter>(ctx.plugins.findExtension('IndexingFilter', 'org.apache.nutch.indexer.feed.FeedIndexingFilter')!);
  const parse = {
    text: 'x',
    isCanonical: false,
    data: createParseData({ parseMeta: { author: ['Grace Hopper'], tag: ['transport', 'sea'], feed: ['http://127.0.0.1:9/news/'], published: [JUNE9], updated: ['not a number'] } }),
  };
  const doc = await filter.filter(createDocument(), { url: 'http://127.0.0.1:9/news/ferry.html', parse } as never);
  assert.ok(doc);
  assert.deepEqual(doc.fields.author, ['Grace Hopper']);
  assert.deepEqual(doc.fields.tag, ['transport', 'sea']);
  assert.deepEqual(doc.fields.feed, ['http://127.0.0.1:9/news/']);
  assert.deepEqual(doc.fields.publishedDate, [new Date(Number(JUNE9))]);
  assert.equal(doc.fields.updatedDate, undefined);
});

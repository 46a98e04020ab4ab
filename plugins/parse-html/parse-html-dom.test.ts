/**
 * parse-html's two paths: the DOM (HtmlParseFilters present) and the streaming parse give the same
 * Parse, on Nutch's DOMContentUtils pages too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createContent } from '../../sdk/plugin.js';
import { fixture, htmlParser } from '../../tests/parse/html-parser.js';

test('the DOM path (HtmlParseFilters present) and the streaming path give the same parse; filters receive the DOM', async () => {
  const { HtmlParseFilters } = await import('../../core/extension-points/html-parse-filter.js');
  const parser = await htmlParser({ 'parser.html.form.use_action': 'true' });
  const docs: unknown[] = [];
  const filters = new HtmlParseFilters([{ extensionId: 'test', filter: { filter: (_c, r, _m, doc) => (docs.push(doc), r) } }]);
  const deep = '<div>'.repeat(20_000) + '<a href="d">deep</a>' + '</div>'.repeat(20_000);
  for (const body of [fixture('links.html'), fixture('broken.html'), fixture('shift_jis-meta.html'), new TextEncoder().encode(deep)]) {
    const content = createContent({ url: 'http://www.example.com/dir/page.html', content: body, contentType: 'text/html' });
    const streamed = await parser.getParse(content);
    const viaDom = await parser.getParse(content, { htmlParseFilters: filters });
    assert.deepEqual(viaDom, streamed);
  }
  assert.equal(docs.length, 4);
  assert.equal((docs[0] as { type: string }).type, 'root');
});

// Nutch's TestDOMContentUtils, as our own pages: text, title and outlinks of each page checked together.
// Text is compared token by token (nutch-ts adds line breaks around block elements; Nutch's test also
// ignores whitespace); outlinks in page order with their anchors.
interface DomPage {
  name: string;
  url: string;
  html: string;
  text: string;
  title: string;
  outlinks: [string, string][];
  useAction?: boolean;
}

const domPages: DomPage[] = [
  {
    name: 'an absolute href is kept as written; comments and scripts are not text',
    url: 'http://www.example.org',
    html: '<html><head><title> Crawl home </title><script> var hidden = 1; </script></head><body> intro <a href="http://www.example.org"> first link </a><!--not text--></body></html>',
    text: 'Crawl home intro first link',
    title: 'Crawl home',
    outlinks: [['http://www.example.org', 'first link']],
  },
  {
    name: 'relative targets against a page in a directory; style skipped',
    url: 'http://www.example.org/docs/page.html',
    html: '<html><head><title> Docs </title><script> x() </script></head><body> lead <a href="/"> root </a><!--c--><style> .x { color: red } </style> <a href="next.html"> next page </a></body></html>',
    text: 'Docs lead root next page',
    title: 'Docs',
    outlinks: [['http://www.example.org/', 'root'], ['http://www.example.org/docs/next.html', 'next page']],
  },
  {
    name: 'a nested <a> ends the anchor text of the outer one',
    url: 'http://www.example.org/docs/',
    html: '<html><head><title> </title></head><body> <a href="/"> outer words <a href="inner"> inner words</a></a></body></html>',
    text: 'outer words inner words',
    title: '',
    outlinks: [['http://www.example.org/', 'outer words'], ['http://www.example.org/docs/inner', 'inner words']],
  },
  {
    name: 'unclosed list items and anchors',
    url: 'http://www.example.org/docs/',
    html: '<html><head><title> list title </title></head><body> lead <ul><li> <a href="/"> start<li> <a href="one"> one<li> <a href="two"> two</ul></body></html>',
    text: 'list title lead start one two',
    title: 'list title',
    outlinks: [['http://www.example.org/', 'start'], ['http://www.example.org/docs/one', 'one'], ['http://www.example.org/docs/two', 'two']],
  },
  {
    name: 'framesets, with a stray frame in the middle',
    url: 'http://www.example.org/frames/',
    html: '<html><head><title> framed </title></head><frameset rows="10,*"> <frame src="top.html"></frame><frameset cols="30,*"><frame src="left.html"><frame src="stray.html"/></frame><frame src="right.html"></frame></frameset></frameset></body></html>',
    text: 'framed',
    title: 'framed',
    outlinks: [['http://www.example.org/frames/top.html', ''], ['http://www.example.org/frames/left.html', ''], ['http://www.example.org/frames/stray.html', ''], ['http://www.example.org/frames/right.html', '']],
  },
  {
    name: 'image maps, a fragment-only area and a self-closed iframe',
    url: 'http://www.example.org/maps/',
    html: '<html><head><title> map page </title></head><body><img src="map.gif" usemap="#m" border="0"><map name="m"><area shape="rect" coords="1,2,3,4" href="../up.html"><area shape="circle" coords="5,6,7" href="#below"><area shape="poly" coords="1,1,2,2,3" href="../other.html"></map><a name="below"/><h1> down here </h1> <iframe src="../docs/frame.html"/></body></html>',
    text: 'map page down here',
    title: 'map page',
    outlinks: [['http://www.example.org/maps/map.gif', ''], ['http://www.example.org/up.html', ''], ['http://www.example.org/maps/#below', ''], ['http://www.example.org/other.html', ''], ['http://www.example.org/docs/frame.html', '']],
  },
  {
    name: 'whitespace of every kind collapses',
    url: 'http://www.example.org/ws/',
    html: '<html><head>\n <title> spaced\t\n  out\r\n </title>\n </head>\n <body>\n    <h1> Heading\there  </h1> \n\t<a href="../up.html">\n  \tlink   text\r\n\t</a>  \t\n    <p> One<span> two<span></span> three</span>. Lines\nbreak.</p><p>Tabs\tas well.\n</p>    Before<br>after<i> it</i>.<br>\n<table>    <tr><td>a</td><td>b</td></tr>\n    <tr><td>c\r\nd</td><td> e\tf</td></tr></table>tail<Br>end.<h2>Last\tline\r!</h2>\r\n    .    .</body>  </html>',
    text: 'spaced out Heading here link text One two three . Lines break. Tabs as well. Before after it . a b c d e f tail end. Last line ! . .',
    title: 'spaced out',
    outlinks: [['http://www.example.org/up.html', 'link text']],
  },
  {
    name: 'rel=nofollow, before or after href',
    url: 'http://www.example.org//',
    html: '<html><head></head><body><a href="http://www.example.org/a" rel="nofollow"> skip </a><a rel="NoFollow" href="http://www.example.org/b"> skip </a></body></html>',
    text: 'skip skip',
    title: '',
    outlinks: [],
  },
  {
    name: 'rel with several values, nofollow among them',
    url: 'http://www.example.org//',
    html: '<html><head></head><body><a href="http://www.example.org/a" rel="noopener nofollow"> skip </a><a rel="nofollow noreferrer" href="http://www.example.org/b"> skip </a></body></html>',
    text: 'skip skip',
    title: '',
    outlinks: [],
  },
  {
    name: 'forms: a POST action is skipped, a GET action is a link with the form text as anchor',
    url: 'http://www.example.org/',
    useAction: true,
    html: "<html><head></head><body><form method='post' action='/post.cgi'><input type=text><input type=submit><p>first</p></form><form method='GET' action='/get.cgi'><input type=text><input type=submit><p>second</p></form></body></html>",
    text: 'first second',
    title: '',
    outlinks: [['http://www.example.org/get.cgi', 'second']],
  },
  {
    name: 'forms: no action is a link without parser.html.form.use_action',
    url: 'http://www.example.org/',
    useAction: false,
    html: "<html><head></head><body><form method='post' action='/post.cgi'><input type=text><p>first</p></form><form method='GET' action='/get.cgi'><input type=text><p>second</p></form></body></html>",
    text: 'first second',
    title: '',
    outlinks: [],
  },
  {
    name: 'targets with their own ;params',
    url: 'http://www.example.org/',
    html: '<html><head><title> params </title></head><body><a href=";p">one</a><a href="s;p">two</a><a href="s;p?q#f">three</a></body></html>',
    text: 'params one two three',
    title: 'params',
    outlinks: [['http://www.example.org/;p', 'one'], ['http://www.example.org/s;p', 'two'], ['http://www.example.org/s;p?q#f', 'three']],
  },
  {
    name: 'a base with ;params: they go with its last segment; a pure query keeps the path (RFC 3986 5.4.1)',
    url: 'http://www.example.org/;session',
    html: '<html><head><title> params </title></head><body><a href="s">one</a><a href="s?q#f">two</a><a href="?k=1">three</a><a href="?k=1#f">four</a><a href="?k=1;more">five</a></body></html>',
    text: 'params one two three four five',
    title: 'params',
    outlinks: [['http://www.example.org/s', 'one'], ['http://www.example.org/s?q#f', 'two'], ['http://www.example.org/;session?k=1', 'three'], ['http://www.example.org/;session?k=1#f', 'four'], ['http://www.example.org/;session?k=1;more', 'five']],
  },
  {
    name: 'a link holding only a comment is a link; an <img alt> is the anchor of a link without text',
    url: 'http://www.example.org/',
    html: "<html><head><title> anchors </title></head><body><a href=\"c\"><!--only a comment--></a><a href=\"w\"> <!--spaces around-->  </a><a href=\"i\">  <img src=pic.gif alt='a picture'> </a></body></html>",
    text: 'anchors',
    title: 'anchors',
    outlinks: [['http://www.example.org/c', ''], ['http://www.example.org/w', ''], ['http://www.example.org/i', 'a picture'], ['http://www.example.org/pic.gif', 'a picture']],
  },
  {
    name: 'media: <video src>, <audio src> and <source src> are outlinks',
    url: 'http://www.example.org/',
    html: '<html><head><title> </title></head><body> <video width="320" height="240" controls> <source src="clip.mp4" type="video/mp4"></video><video src="/v/whole.webm"></video><audio src="song.ogg"><source src="song.mp3"></audio></body></html>',
    text: '',
    title: '',
    outlinks: [['http://www.example.org/clip.mp4', ''], ['http://www.example.org/v/whole.webm', ''], ['http://www.example.org/song.ogg', ''], ['http://www.example.org/song.mp3', '']],
  },
];

const tokens = (s: string) => s.split(/\s+/).filter(Boolean).join(' ');

for (const page of domPages) {
  test(`Nutch DOMContentUtils page: ${page.name}`, async () => {
    for (const viaDom of [false, true]) {
      const parser = await htmlParser({ 'parser.html.form.use_action': String(page.useAction ?? true) });
      const content = createContent({ url: page.url, content: new TextEncoder().encode(page.html), contentType: 'text/html' });
      const parseContext = viaDom ? { htmlParseFilters: new (await import('../../core/extension-points/html-parse-filter.js')).HtmlParseFilters([{ extensionId: 'dom', filter: { filter: (_c, r) => r } }]) } : undefined;
      const p = (await parser.getParse(content, parseContext)).parses[page.url]!;
      const path = viaDom ? 'DOM path' : 'streaming path';
      assert.equal(tokens(p.text), tokens(page.text), `text (${path})`);
      assert.equal(p.data.title, page.title, `title (${path})`);
      assert.deepEqual(p.data.outlinks.map((o) => [o.toUrl, o.anchor]), page.outlinks, `outlinks (${path})`);
    }
  });
}

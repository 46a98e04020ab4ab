import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestContext } from '../../sdk/testing.js';
import { createContent, ParseMeta, ParseStatusCode, ParseStatusMinor, type Content, type Parse, type Parser } from '../../sdk/plugin.js';

const fixtures = fileURLToPath(new URL('../../tests/parse/fixtures/', import.meta.url));
const fixture = (name: string) => new Uint8Array(readFileSync(join(fixtures, name)));

async function htmlParser(defines: Record<string, string> = {}): Promise<Parser> {
  const ctx = createTestContext({ cwd: mkdtempSync(join(tmpdir(), 'parse-html-')), env: { NUTCH_CONF_DIR: join(tmpdir(), 'no-such-conf') }, defines });
  return ctx.plugins.getInstance<Parser>(ctx.plugins.findExtension('Parser', 'parse-html')!);
}

async function parse(html: string | Uint8Array, init: Partial<Content> = {}, defines: Record<string, string> = {}): Promise<Parse> {
  const parser = await htmlParser(defines);
  const bytes = typeof html === 'string' ? new TextEncoder().encode(html) : html;
  const url = init.url ?? 'http://www.example.com/dir/page.html';
  const result = await parser.getParse(createContent({ url, content: bytes, contentType: 'text/html', ...init }));
  return result.parses[url]!;
}

const charsetCases: { name: string; file: string; contentType?: string; defines?: Record<string, string>; title?: string; text: RegExp; encoding: string }[] = [
  { name: 'BOM beats a lying meta', file: 'utf8-bom.html', title: 'Café BOM', text: /crème brûlée/, encoding: 'utf-8' },
  { name: 'meta charset windows-1252', file: 'windows-1252-meta.html', text: /“café” € price/, encoding: 'windows-1252' },
  { name: 'http-equiv Shift_JIS', file: 'shift_jis-meta.html', title: '日本語', text: /日本語/, encoding: 'shift_jis' },
  { name: 'HTTP header beats meta', file: 'windows-1252-meta.html', contentType: 'text/html; charset=utf-8', text: /\uFFFDcaf\uFFFD \uFFFD price/, encoding: 'utf-8' },
  { name: 'detector finds undeclared Shift_JIS', file: 'shift_jis-undeclared.html', text: /日おにしいけで本/, encoding: 'shift_jis' },
  { name: 'detector finds undeclared Latin-1 even with a UTF-8 default', file: 'latin1-undeclared.html', defines: { 'parser.character.encoding.default': 'utf-8' }, text: /crème brûlée/, encoding: 'windows-1252' },
];

for (const c of charsetCases) {
  test(`charset: ${c.name}`, async () => {
    const p = await parse(fixture(c.file), c.contentType ? { contentType: c.contentType } : {}, c.defines);
    assert.equal(p.data.status.majorCode, ParseStatusCode.SUCCESS);
    if (c.title) assert.equal(p.data.title, c.title);
    assert.match(p.text, c.text);
    assert.deepEqual(p.data.parseMeta[ParseMeta.CHARSET], [c.encoding]);
  });
}

test('charset: a meta beyond parser.html.sniff.bytes is not seen', async () => {
  const p = await parse(fixture('shift_jis-meta.html'), {}, { 'parser.html.sniff.bytes': '10' });
  assert.notEqual(p.data.parseMeta[ParseMeta.CHARSET]?.[0], 'shift_jis');
});

test('charset: an unknown header label falls through to meta', async () => {
  const p = await parse(fixture('windows-1252-meta.html'), { contentType: 'text/html; charset=x-no-such-charset' });
  assert.deepEqual(p.data.parseMeta[ParseMeta.CHARSET], ['windows-1252']);
});

test('text: script, style and noscript skipped, whitespace collapsed, line separators', async () => {
  const p = await parse(`<html><head><title> The
    Title </title><style>p{}</style><script>var hidden = 1;</script></head>
    <body><div>First   block</div><div>Second <span>inline</span>	text</div><noscript>no js</noscript>
    <p>Para&nbsp;&amp; entity</p>tail</body></html>`);
  assert.equal(p.data.title, 'The Title');
  assert.equal(p.text, 'The Title\nFirst block\nSecond inline text\nPara & entity\ntail');
  assert.doesNotMatch(p.text, /hidden|no js|p\{\}/);
});

test('text: no line breaks when parser.html.line.separators is empty', async () => {
  const p = await parse('<div>a</div><div>b</div>', {}, { 'parser.html.line.separators': '' });
  assert.equal(p.text, 'a b');
});

test('outlinks: every link tag, anchors, base href, dropped schemes, rel=nofollow, form per use_action', async () => {
  const p = await parse(fixture('links.html'), {}, { 'parser.html.form.use_action': 'true' });
  const links = p.data.outlinks.map((o) => [o.toUrl, o.anchor]);
  assert.deepEqual(links, [
    ['http://base.example/dir/style.css', ''],
    ['http://base.example/dir/page.html', 'Page one'],
    ['http://base.example/abs.html', 'Abs'],
    ['http://other.example/x?y=1#frag', 'Other'],
    ['http://base.example/dir/area.html', ''],
    ['http://base.example/dir/frame.html', ''],
    ['http://base.example/dir/iframe.html', ''],
    ['http://base.example/dir/img.png', 'pic'], // an <img> link's anchor is its alt, as Nutch
    ['http://base.example/dir/embed.swf', ''],
    ['http://base.example/dir/object.bin', ''],
    ['http://base.example/dir/app.js', ''],
    ['http://base.example/dir/search', ''],
  ]);
});

test('outlinks: form actions are not outlinks by default; ignore_tags removes tags', async () => {
  const p = await parse(fixture('links.html'), {}, { 'parser.html.outlinks.ignore_tags': 'img,script,link,embed,object,frame,iframe,area' });
  assert.deepEqual(p.data.outlinks.map((o) => o.toUrl), [
    'http://base.example/dir/page.html', 'http://base.example/abs.html', 'http://other.example/x?y=1#frag',
  ]);
});

const baseCases: { name: string; html: string; expect: string[] }[] = [
  { name: 'relative base resolves against the page', html: '<base href="/other/"><a href="x.html">x</a>', expect: ['http://www.example.com/other/x.html'] },
  { name: 'garbage base is ignored', html: '<base href="http://[::1"><a href="x.html">x</a>', expect: ['http://www.example.com/dir/x.html'] },
  { name: 'a javascript: base is ignored', html: '<base href="javascript:void(0)"><a href="x.html">x</a>', expect: ['http://www.example.com/dir/x.html'] },
  { name: 'first base wins', html: '<base href="http://a.example/"><base href="http://b.example/"><a href="x">x</a>', expect: ['http://a.example/x'] },
  { name: 'no base: content baseUrl (after redirects) is used', html: '<a href="y">y</a>', expect: ['http://www.example.com/dir/y'] },
];
for (const c of baseCases) {
  test(`base href: ${c.name}`, async () => {
    const p = await parse(c.html);
    assert.deepEqual(p.data.outlinks.map((o) => o.toUrl), c.expect);
  });
}

test('base href: Content.baseUrl differs from url', async () => {
  const p = await parse('<a href="z">z</a>', { url: 'http://a.example/start', baseUrl: 'http://b.example/moved/here' });
  assert.deepEqual(p.data.outlinks.map((o) => o.toUrl), ['http://b.example/moved/z']);
});

const robotsCases: { content: string; noIndex: boolean; noFollow: boolean; noArchive: boolean }[] = [
  { content: 'noindex', noIndex: true, noFollow: false, noArchive: false },
  { content: 'nofollow', noIndex: false, noFollow: true, noArchive: false },
  { content: 'NOINDEX, NOFOLLOW', noIndex: true, noFollow: true, noArchive: false },
  { content: 'none', noIndex: true, noFollow: true, noArchive: false },
  { content: 'all', noIndex: false, noFollow: false, noArchive: false },
  { content: 'noarchive', noIndex: false, noFollow: false, noArchive: true },
  { content: 'index,follow', noIndex: false, noFollow: false, noArchive: false },
];
for (const c of robotsCases) {
  test(`meta robots "${c.content}"`, async () => {
    const p = await parse(`<html><head><title>T</title><meta name="ROBOTS" content="${c.content}"></head><body>body text <a href="l.html">l</a></body></html>`);
    assert.equal(p.data.parseMeta[ParseMeta.ROBOTS_NOINDEX]?.[0] === 'true', c.noIndex);
    assert.equal(p.data.parseMeta[ParseMeta.ROBOTS_NOFOLLOW]?.[0] === 'true', c.noFollow);
    assert.equal(p.data.parseMeta[ParseMeta.ROBOTS_NOARCHIVE]?.[0] === 'true', c.noArchive);
    assert.equal(p.data.outlinks.length, c.noFollow ? 0 : 1);
    assert.equal(p.text, c.noIndex ? '' : 'T body text l');
    assert.equal(p.data.title, c.noIndex ? '' : 'T');
  });
}

const refreshCases: { content: string; target: string | null; delay?: string }[] = [
  { content: '5; url=/next.html', target: 'http://www.example.com/next.html', delay: '5' },
  { content: "0;URL='http://other.example/'", target: 'http://other.example/', delay: '0' },
  { content: '3', target: 'http://www.example.com/dir/page.html', delay: '3' },
  { content: 'soon; url=/x', target: null },
];
for (const c of refreshCases) {
  test(`meta refresh "${c.content}"`, async () => {
    const p = await parse(`<head><meta http-equiv="Refresh" content="${c.content.replace(/"/g, '&quot;')}"></head><body>moved</body>`);
    if (c.target === null) {
      assert.equal(p.data.status.minorCode, ParseStatusMinor.SUCCESS_OK);
    } else {
      assert.equal(p.data.status.majorCode, ParseStatusCode.SUCCESS);
      assert.equal(p.data.status.minorCode, ParseStatusMinor.SUCCESS_REDIRECT);
      assert.deepEqual(p.data.status.args, [c.target, c.delay]);
    }
  });
}

test('bad input: broken and truncated HTML still parses', async () => {
  const p = await parse(fixture('broken.html'));
  assert.equal(p.data.status.majorCode, ParseStatusCode.SUCCESS);
  assert.equal(p.data.title, 'Broken <b>title');
  assert.match(p.text, /Unclosed para one italic/);
  assert.deepEqual(p.data.outlinks.map((o) => o.toUrl), ['http://www.example.com/dir/one.html', 'http://www.example.com/dir/two.html']);
});

test('bad input: 50,000-deep nesting walks without overflowing the stack', async () => {
  const depth = 50_000;
  const html = '<div>'.repeat(depth) + '<a href="deep.html">deep</a>' + '</div>'.repeat(depth);
  const p = await parse(html);
  assert.equal(p.text, 'deep');
  assert.deepEqual(p.data.outlinks, [{ toUrl: 'http://www.example.com/dir/deep.html', anchor: 'deep' }]);
});

test('bad input: a 4 MB attribute and a 10 KB href (over db.max.outlink.length) are dropped, not resolved', async () => {
  const huge = 'x'.repeat(4 * 1024 * 1024);
  const p = await parse(`<div data-x="${huge}">t</div><a href="/${'y'.repeat(10_000)}">long</a><a href="ok.html">ok</a>`);
  assert.deepEqual(p.data.outlinks.map((o) => o.toUrl), ['http://www.example.com/dir/ok.html']);
});

test('bad input: binary junk labelled text/html gets a failed status, not a crash', async () => {
  let seed = 42;
  const junk = new Uint8Array(64 * 1024).map(() => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) & 0xff);
  const p = await parse(junk);
  assert.equal(p.data.status.majorCode, ParseStatusCode.FAILED);
  assert.equal(p.data.status.minorCode, ParseStatusMinor.FAILED_INVALID_FORMAT);
});

test('bad input: invalid UTF-8 becomes replacement characters', async () => {
  const bytes = new Uint8Array([...new TextEncoder().encode('<p>ok '), 0xc3, 0x28, 0xff, ...new TextEncoder().encode(' end</p>')]);
  const p = await parse(bytes, { contentType: 'text/html; charset=utf-8' });
  assert.match(p.text, /^ok \uFFFD\(\uFFFD end$/);
});

test('bad input: 100,000 links in one page are all extracted (the default parser.outlinks.ceiling; db.max.outlinks.per.page applies on output)', async () => {
  const html = Array.from({ length: 100_000 }, (_, i) => `<a href="/l${i}">${i}</a>`).join('');
  const p = await parse(html);
  assert.equal(p.data.outlinks.length, 100_000);
  assert.equal(p.data.parseMeta[ParseMeta.OUTLINKS_OVER_CEILING], undefined);
});

test('bad input: links beyond parser.outlinks.ceiling are counted, not collected; empty <a></a> are no links either side of it; both paths agree', async () => {
  const { HtmlParseFilters } = await import('../../core/extension-points/html-parse-filter.js');
  const html = Array.from({ length: 500 }, (_, i) => `<a href="/a${i}">a ${i}</a><a href="/e${i}"></a><img src="/i${i}.png" alt="i">`).join('\n');
  const parser = await htmlParser({ 'parser.outlinks.ceiling': '300' });
  const content = createContent({ url: 'http://www.example.com/', content: new TextEncoder().encode(html), contentType: 'text/html' });
  const filters = new HtmlParseFilters([{ extensionId: 'test', filter: { filter: (_c, r) => r } }]);
  for (const ctx of [undefined, { htmlParseFilters: filters }]) {
    const p = Object.values((await parser.getParse(content, ctx)).parses)[0]!;
    assert.equal(p.data.outlinks.length, 300);
    assert.equal(p.data.outlinks[0]!.toUrl, 'http://www.example.com/a0');
    assert.equal(p.data.outlinks[299]!.toUrl, 'http://www.example.com/i149.png');
    assert.deepEqual(p.data.parseMeta[ParseMeta.OUTLINKS_OVER_CEILING], ['700'], 'the 1000 real links minus 300; the 500 empty anchors not counted');
    assert.match(p.text, /a 499/, 'the text is whole: only links are capped');
  }
  const nofollow = await parse(`<meta name="robots" content="nofollow">${html}`, {}, { 'parser.outlinks.ceiling': '300' });
  assert.deepEqual(nofollow.data.outlinks, []);
  assert.equal(nofollow.data.parseMeta[ParseMeta.OUTLINKS_OVER_CEILING], undefined, 'nofollow drops every link: none is over the ceiling');
});

test('empty content parses to an empty success', async () => {
  const p = await parse(new Uint8Array(0));
  assert.equal(p.data.status.majorCode, ParseStatusCode.SUCCESS);
  assert.equal(p.text, '');
  assert.deepEqual(p.data.outlinks, []);
});

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

test('text: entities inside a word stay in the word (the tokenizer splits text at entities)', async () => {
  const p = await parse('<p>more&hellip; caf&eacute; A&amp;B <a href="x">R&amp;D&nbsp;lab</a></p>');
  assert.equal(p.text, 'more… café A&B R&D lab');
  assert.equal(p.data.outlinks[0]!.anchor, 'R&D lab');
});

test('bad input: a 20 MB page parses (text and links from its end too)', async () => {
  const chunk = '<div><p>lorem ipsum dolor sit amet, consectetur adipiscing elit</p></div>\n';
  const html = chunk.repeat(Math.ceil((20 * 1024 * 1024) / chunk.length)) + '<a href="/at-the-end">end</a>';
  const p = await parse(html);
  assert.equal(p.data.status.majorCode, ParseStatusCode.SUCCESS);
  assert.deepEqual(p.data.outlinks.map((o) => o.toUrl), ['http://www.example.com/at-the-end']);
  assert.ok(p.text.endsWith('elit\nend'));
});

test('Nutch link rules: an empty <a></a> is no link; title and base come from the head only', async () => {
  const p = await parse('<html><head><title>Head title</title></head><body><base href="http://late.example/"><title>Body title</title><a href="empty.html"></a><a href="ws.html"> </a><a href="img.html"><img src="i.png"></a></body></html>');
  assert.equal(p.data.title, 'Head title');
  assert.deepEqual(p.data.outlinks.map((o) => o.toUrl), [
    'http://www.example.com/dir/ws.html', 'http://www.example.com/dir/img.html', 'http://www.example.com/dir/i.png',
  ]);
});

test('parser.fix.embeddedparams (off by default, as Nutch\'s resolver): the base URL\'s ;params move to relative targets (before the query)', async () => {
  const html = '<a href="next.html">n</a><a href="q.html?x=1">q</a><a href="own.html;sid=2">o</a><a href="http://other.example/">x</a>';
  const url = 'http://www.example.com/dir/page.html;jsessionid=ABC';
  const fixed = await parse(html, { url }, { 'parser.fix.embeddedparams': 'true' });
  assert.deepEqual(fixed.data.outlinks.map((o) => o.toUrl), [
    'http://www.example.com/dir/next.html;jsessionid=ABC', 'http://www.example.com/dir/q.html;jsessionid=ABC?x=1', 'http://www.example.com/dir/own.html;sid=2', 'http://other.example/',
  ]);
  const plain = await parse(html, { url });
  assert.deepEqual(plain.data.outlinks.map((o) => o.toUrl), [
    'http://www.example.com/dir/next.html', 'http://www.example.com/dir/q.html?x=1', 'http://www.example.com/dir/own.html;sid=2', 'http://other.example/',
  ]);
});

test('meta tags under <body> are ignored, as Nutch\'s HTMLMetaProcessor', async () => {
  const p = await parse('<html><head><meta name="keywords" content="k"></head><body><meta name="robots" content="noindex,nofollow"><a href="x">x</a></body></html>');
  assert.equal(p.data.parseMeta[ParseMeta.ROBOTS_NOINDEX], undefined);
  assert.equal(p.data.outlinks.length, 1);
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

test('hostile input: UTF-16 HTML without a BOM and HTML with NUL bytes are parsed, not dropped as binary', async () => {
  const page = '<html><head><title>Sixteen</title></head><body><p>wide text</p><a href="/w">w</a></body></html>';
  for (const enc of ['utf16le', 'utf16be'] as const) {
    const le = Buffer.from(page, 'utf16le');
    const bytes = enc === 'utf16le' ? le : Buffer.from(le).swap16();
    const p = await parse(new Uint8Array(bytes));
    assert.equal(p.data.status.majorCode, ParseStatusCode.SUCCESS, enc);
    assert.equal(p.data.title, 'Sixteen', enc);
    assert.match(p.text, /wide text/, enc);
  }
  const nul = new TextEncoder().encode('<html><head><title>N\0ul</title></head><body>\0\0\0<p>a\0b text</p>' + '\0'.repeat(200) + '</body></html>');
  const p = await parse(nul);
  assert.equal(p.data.status.majorCode, ParseStatusCode.SUCCESS);
  assert.equal(p.data.title, 'Nul');
  assert.match(p.text, /ab text/);
  assert.doesNotMatch(p.text, /\0/);
});

test('headings: the text of each parser.html.headings element, in page order, as parse metadata "headings"', async () => {
  const page = '<html><head><title>T</title></head><body><h1>Main <em>topic</em></h1><p>x</p><h3>Detail   one</h3><h6>Fine</h6><h2></h2></body></html>';
  assert.deepEqual((await parse(page)).data.parseMeta.headings, ['Main topic', 'Detail one', 'Fine']);
  assert.deepEqual((await parse(page, {}, { 'parser.html.headings': 'h1' })).data.parseMeta.headings, ['Main topic']);
  assert.equal((await parse(page, {}, { 'parser.html.headings': '' })).data.parseMeta.headings, undefined);
  const noindex = page.replace('<title>', '<meta name="robots" content="noindex"><title>');
  assert.equal((await parse(noindex)).data.parseMeta.headings, undefined);
});

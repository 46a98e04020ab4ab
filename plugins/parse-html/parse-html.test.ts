/** parse-html as Nutch's HtmlParser: charsets, text, outlinks, base href, robots meta, refresh, headings. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ParseMeta, ParseStatusCode, ParseStatusMinor } from '../../sdk/plugin.js';
import { fixture, parse } from '../../tests/parse/html-parser.js';

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

test('empty content parses to an empty success', async () => {
  const p = await parse(new Uint8Array(0));
  assert.equal(p.data.status.majorCode, ParseStatusCode.SUCCESS);
  assert.equal(p.text, '');
  assert.deepEqual(p.data.outlinks, []);
});

test('text: entities inside a word stay in the word (the tokenizer splits text at entities)', async () => {
  const p = await parse('<p>more&hellip; caf&eacute; A&amp;B <a href="x">R&amp;D&nbsp;lab</a></p>');
  assert.equal(p.text, 'more… café A&B R&D lab');
  assert.equal(p.data.outlinks[0]!.anchor, 'R&D lab');
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

test('headings: the text of each parser.html.headings element, in page order, as parse metadata "headings"', async () => {
  const page = '<html><head><title>T</title></head><body><h1>Main <em>topic</em></h1><p>x</p><h3>Detail   one</h3><h6>Fine</h6><h2></h2></body></html>';
  assert.deepEqual((await parse(page)).data.parseMeta.headings, ['Main topic', 'Detail one', 'Fine']);
  assert.deepEqual((await parse(page, {}, { 'parser.html.headings': 'h1' })).data.parseMeta.headings, ['Main topic']);
  assert.equal((await parse(page, {}, { 'parser.html.headings': '' })).data.parseMeta.headings, undefined);
  const noindex = page.replace('<title>', '<meta name="robots" content="noindex"><title>');
  assert.equal((await parse(noindex)).data.parseMeta.headings, undefined);
});


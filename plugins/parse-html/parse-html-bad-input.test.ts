/**
 * parse-html on bad and hostile input: broken, deep, huge, binary and mis-encoded pages parse or fail
 * cleanly, never crash.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ParseMeta, ParseStatusCode, ParseStatusMinor, createContent } from '../../sdk/plugin.js';
import { fixture, htmlParser, parse } from '../../tests/parse/html-parser.js';

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

test('bad input: a 20 MB page parses (text and links from its end too)', async () => {
  const chunk = '<div><p>lorem ipsum dolor sit amet, consectetur adipiscing elit</p></div>\n';
  const html = chunk.repeat(Math.ceil((20 * 1024 * 1024) / chunk.length)) + '<a href="/at-the-end">end</a>';
  const p = await parse(html);
  assert.equal(p.data.status.majorCode, ParseStatusCode.SUCCESS);
  assert.deepEqual(p.data.outlinks.map((o) => o.toUrl), ['http://www.example.com/at-the-end']);
  assert.ok(p.text.endsWith('elit\nend'));
});

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

import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureContext, type TestNutchContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { parse } from '../../core/crawl/parse/parse-segment.js';
import { ParseOutputProcessor, emptyOutlinkStats } from '../../core/crawl/parse/parse-output.js';
import { createContent, type Content } from '../../core/model/content.js';
import { CrawlStatus, DatumMeta, type CrawlDatum } from '../../core/model/crawl-datum.js';
import { ParseStatusCode, createParseData, singleParseResult, type ParseData } from '../../core/model/parse.js';
import type { Segment, SegmentPartName, SegmentPartTypes } from '../../core/storage/interfaces.js';

const testPlugins = fileURLToPath(new URL('./plugins/', import.meta.url));
const seen = ((globalThis as { __parseTestSeen?: string[] }).__parseTestSeen ??= []);

function context(t: TestContext, defines: Record<string, string> = {}): TestNutchContext {
  return fixtureContext(t, {
    includeBuiltins: true,
    pluginFolders: [join(testPlugins, 'parse-test-urlrules')],
    defines: { 'plugin.includes': 'parse-(html|text|test-urlrules)', 'parser.worker.threads': '1', ...defines },
  });
}

const html = (url: string, body: string, metadata: Record<string, string[]> = {}): Content =>
  createContent({ url, contentType: 'text/html', content: new TextEncoder().encode(body), metadata: { [DatumMeta.FETCH_STATUS_KEY]: [String(CrawlStatus.STATUS_FETCH_SUCCESS)], ...metadata } });

async function segmentWith(ctx: TestNutchContext, t: TestContext, partitions: Content[][]): Promise<string> {
  const seg = await ctx.storage.createSegment(join(tempDir(t), 'segments'), '20260101000000');
  for (let p = 0; p < partitions.length; p++) {
    const w = await seg.openWriter('content', p, { totalPartitions: partitions.length });
    await w.append(partitions[p]!.map((c) => ({ url: c.url, value: c })));
    await w.finish();
    await w.close();
  }
  await seg.close();
  return seg.path;
}

async function readAll<P extends SegmentPartName>(seg: Segment, part: P): Promise<{ url: string; value: SegmentPartTypes[P] }[]> {
  const out: { url: string; value: SegmentPartTypes[P] }[] = [];
  for await (const r of seg.read(part)) out.push(r);
  return out;
}

const linked = (records: { url: string; value: CrawlDatum }[]) => records.filter((r) => r.value.status === CrawlStatus.STATUS_LINKED).map((r) => r.url);

test('parse stage: writes parse_text, parse_data and crawl_parse as Nutch, skips what ParseSegment skips', async (t) => {
  const ctx = context(t, { 'db.parsemeta.to.crawldb': 'metatag.description', 'plugin.includes': 'parse-(html|text|test-urlrules|metatags)' });
  const page = html('http://a.example/index.html', `<html><head><title>Home</title><meta name="description" content="the home"></head><body>
    <a href="/one.html">One</a> <a href="http://b.example/">B</a> <a href="/one.html">One again</a>
    <a href="javascript:void(0)">js</a> <a href="/private/x">private</a> <a href="/s?sid=abc123">session</a>
    <a href="/${'l'.repeat(5000)}">too long</a></body></html>`);
  const refresh = html('http://a.example/old', '<meta http-equiv="refresh" content="0; url=/new">');
  const gone = html('http://a.example/gone', '<a href="/never">x</a>', { [DatumMeta.FETCH_STATUS_KEY]: [String(CrawlStatus.STATUS_FETCH_GONE)] });
  const truncated = html('http://a.example/big', '<a href="/cut">x</a>', { 'nutch.content.truncated': ['LENGTH'] });
  const text = createContent({ url: 'http://b.example/readme.txt', contentType: 'text/plain', content: new TextEncoder().encode('see http://c.example/doc'), metadata: { [DatumMeta.FETCH_STATUS_KEY]: [String(CrawlStatus.STATUS_FETCH_SUCCESS)] } });
  const noStatus = createContent({ url: 'http://b.example/unknown', contentType: 'text/html', content: new TextEncoder().encode('<a href="/z">z</a>') });
  const segPath = await segmentWith(ctx, t, [[page, refresh, gone, truncated], [text, noStatus]]);

  const events: string[] = [];
  const counters = await parse(ctx, { segment: segPath }, { onProgress: (e) => events.push(e.type) });
  assert.equal(counters['ParserStatus.success'], 3);
  assert.equal(counters['ParseSegment.skipped.notFetched'], 1);
  assert.equal(counters['ParseSegment.skipped.truncated'], 1);
  assert.equal(counters['ParseSegment.skipped.noFetchStatus'], 1);
  assert.equal(counters['outlinks.filtered'], 1);
  assert.deepEqual([events[0], events.at(-1)], ['stage-start', 'stage-end']);

  const seg = await ctx.storage.openSegment(segPath);
  t.after(() => seg.close());
  for (const part of ['parse_text', 'parse_data', 'crawl_parse'] as const) assert.ok(await seg.isComplete(part), `${part} has _SUCCESS`);
  assert.deepEqual(await seg.partitions('parse_data'), [0, 1]);

  const texts = await readAll(seg, 'parse_text');
  assert.deepEqual(texts.map((r) => r.url), ['http://a.example/index.html', 'http://a.example/old', 'http://b.example/readme.txt']);
  assert.match(texts[0]!.value.text, /^Home One B One again js private session too long$/);

  const data = new Map((await readAll(seg, 'parse_data')).map((r) => [r.url, r.value as ParseData]));
  const home = data.get('http://a.example/index.html')!;
  assert.equal(home.title, 'Home');
  assert.deepEqual(home.outlinks.map((o) => [o.toUrl, o.anchor]), [
    ['http://a.example/one.html', 'One'], ['http://b.example/', 'B'], ['http://a.example/one.html', 'One again'], ['http://a.example/s', 'session'],
  ]);
  assert.equal(home.contentMeta['nutch.segment.name']?.[0], '20260101000000');
  assert.match(home.contentMeta['nutch.content.digest']?.[0] ?? '', /^[0-9a-f]{32}$/);
  assert.equal(data.get('http://a.example/old')!.status.minorCode, 100);

  const crawl = await readAll(seg, 'crawl_parse');
  const homeRecords = crawl.filter((r) => r.url === 'http://a.example/index.html');
  assert.equal(homeRecords.filter((r) => r.value.status === CrawlStatus.STATUS_SIGNATURE).length, 1);
  const meta = homeRecords.find((r) => r.value.status === CrawlStatus.STATUS_PARSE_META)!;
  assert.deepEqual(meta.value.metaData['metatag.description'], ['the home']);
  assert.deepEqual(linked(crawl), ['http://a.example/one.html', 'http://b.example/', 'http://a.example/s', 'http://a.example/new', 'http://c.example/doc']);
  assert.ok(!seen.some((u) => u.length > 4096), 'an over-long outlink never reached a normaliser');
  assert.ok(seen.includes('http://a.example/s?sid=abc123'));
});

test('parse output: an outlink longer than db.max.outlink.length is dropped before any normaliser sees it', async (t) => {
  const ctx = context(t, { 'db.max.outlink.length': '40' });
  const processor = await ParseOutputProcessor.create(ctx);
  const stats = emptyOutlinkStats();
  const long = `http://a.example/${'z'.repeat(40)}`;
  const parseData = createParseData({ outlinks: [{ toUrl: long, anchor: '' }, { toUrl: 'http://a.example/short', anchor: 's' }] });
  const records = processor.recordsFor(createContent({ url: 'http://a.example/' }), { result: singleParseResult('http://a.example/', { text: 't', data: parseData, isCanonical: true }), signature: null }, 'seg', stats);
  assert.equal(stats.tooLong, 1);
  assert.deepEqual(linked(records.crawlParse), ['http://a.example/short']);
  assert.ok(!seen.includes(long));
  assert.ok(seen.includes('http://a.example/short'));
});

test('parse stage: db.max.outlinks.per.page, db.ignore.external.links and db.ignore.internal.links', async (t) => {
  const body = '<a href="/1">1</a><a href="/2">2</a><a href="http://x.example/">x</a><a href="http://www.a.example/w">w</a><a href="/3">3</a>';
  const cases: { defines: Record<string, string>; expect: string[] }[] = [
    { defines: { 'db.max.outlinks.per.page': '2' }, expect: ['http://a.example/1', 'http://a.example/2'] },
    { defines: { 'db.ignore.external.links': 'true' }, expect: ['http://a.example/1', 'http://a.example/2', 'http://a.example/3'] },
    { defines: { 'db.ignore.external.links': 'true', 'db.ignore.external.links.mode': 'byDomain' }, expect: ['http://a.example/1', 'http://a.example/2', 'http://www.a.example/w', 'http://a.example/3'] },
    { defines: { 'db.ignore.internal.links': 'true' }, expect: ['http://x.example/', 'http://www.a.example/w'] },
  ];
  for (const c of cases) {
    const ctx = context(t, c.defines);
    const segPath = await segmentWith(ctx, t, [[html('http://a.example/', body)]]);
    await parse(ctx, { segment: segPath });
    const seg = await ctx.storage.openSegment(segPath);
    assert.deepEqual(linked(await readAll(seg, 'crawl_parse')), c.expect, JSON.stringify(c.defines));
    assert.deepEqual((await readAll(seg, 'parse_data'))[0]!.value.outlinks.map((o) => o.toUrl), c.expect);
    await seg.close();
  }
});

test('parse stage: refuses a parsed segment unless forced; -force replaces the parse output', async (t) => {
  const ctx = context(t);
  const segPath = await segmentWith(ctx, t, [[html('http://a.example/', '<a href="/1">1</a>')]]);
  await parse(ctx, { segment: segPath });
  const again = await parse(ctx, { segment: segPath });
  assert.equal(again['ParseSegment.alreadyParsed'], 1);
  assert.ok(ctx.log.records.some((r) => r.fields.code === 'NUTCH_SEGMENT_ALREADY_PARSED'));
  let seg = await ctx.storage.openSegment(segPath);
  assert.equal((await readAll(seg, 'parse_data')).length, 1);
  await seg.close();

  const forced = await parse(ctx, { segment: segPath, force: true });
  assert.equal(forced['ParserStatus.success'], 1);
  seg = await ctx.storage.openSegment(segPath);
  assert.equal((await readAll(seg, 'parse_data')).length, 1, 'replaced, not appended');
  assert.equal((await readAll(seg, 'crawl_parse')).length, 2);
  await seg.close();
});

test('parse stage: a segment without content is an error naming it; a failed parse is still written', async (t) => {
  const ctx = context(t);
  const empty = await ctx.storage.createSegment(join(tempDir(t), 'segments'), '20260101000001');
  await empty.close();
  await assert.rejects(parse(ctx, { segment: empty.path }), (err: { code?: string; message: string }) => err.code === 'NUTCH_STORAGE_NOT_FOUND' && err.message.includes(empty.path));

  let seed = 7;
  const junk = new Uint8Array(4096).map(() => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) & 0xff);
  const segPath = await segmentWith(ctx, t, [[createContent({ url: 'http://a.example/bin', contentType: 'text/html', content: junk, metadata: { [DatumMeta.FETCH_STATUS_KEY]: [String(CrawlStatus.STATUS_FETCH_SUCCESS)] } })]]);
  const counters = await parse(ctx, { segment: segPath });
  assert.equal(counters['ParserStatus.failed'], 1);
  const seg = await ctx.storage.openSegment(segPath);
  const [data] = await readAll(seg, 'parse_data');
  assert.equal(data!.value.status.majorCode, ParseStatusCode.FAILED);
  assert.ok(await seg.isComplete('parse_data'), 'parse_data complete (_SUCCESS)');
  await seg.close();
});

test('parse stage: an aborted parse commits what it parsed and leaves the parts without _SUCCESS', async (t) => {
  const ctx = context(t);
  const pages = Array.from({ length: 30 }, (_, i) => html(`http://a.example/${i}`, `<a href="/x${i}">x</a>`));
  const segPath = await segmentWith(ctx, t, [pages]);
  const controller = new AbortController();
  let pagesSeen = 0;
  await parse(ctx, { segment: segPath }, {
    signal: controller.signal,
    onProgress: (e) => {
      if (e.type === 'page' && ++pagesSeen === 3) controller.abort();
    },
  });
  const seg = await ctx.storage.openSegment(segPath);
  const stored = (await readAll(seg, 'parse_data')).length;
  assert.ok(stored >= 3 && stored < 30, `stored ${stored}`);
  assert.equal(await seg.isComplete('parse_data'), false);
  await seg.close();
});

test('parse stage: a parse plugin whose start() throws fails the stage before anything is written', async (t) => {
  const ctx = fixtureContext(t, {
    includeBuiltins: true,
    pluginFolders: [join(testPlugins, 'parse-start-fails')],
    defines: { 'plugin.includes': 'parse-(html|start-fails)', 'parser.worker.threads': '1' },
  });
  const segPath = await segmentWith(ctx, t, [[html('http://a.example/', '<p>x</p>')]]);
  await assert.rejects(parse(ctx, { segment: segPath }), (err: { code?: string; message: string }) => err.code === 'NUTCH_PLUGIN_START_FAILED' && /parse-start-fails/.test(err.message));
  const seg = await ctx.storage.openSegment(segPath);
  for (const part of ['parse_text', 'parse_data', 'crawl_parse'] as const) assert.equal(await seg.hasPart(part), false, `${part} not written`);
  await seg.close();
});

test('parse-plugins.json: a bad shape is an error naming the file and the JSON pointer', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'bad-parse-plugins.json'), JSON.stringify({ mimeTypes: { 'text/html': 'parse-html' } }));
  const ctx = fixtureContext(t, { includeBuiltins: true, cwd: dir, defines: { 'parse.plugin.file': 'bad-parse-plugins.json', 'parser.worker.threads': '1', 'plugin.includes': 'parse-html' } });
  const segPath = await segmentWith(ctx, t, [[html('http://a.example/', '<p>x</p>')]]);
  await assert.rejects(parse(ctx, { segment: segPath }), (err: { code?: string; message: string }) =>
    err.code === 'NUTCH_PARSE_PLUGINS_INVALID' && err.message.includes('bad-parse-plugins.json') && err.message.includes('/mimeTypes/text~1html'));
});

test('parse output: links to the page itself are skipped; a non-canonical sub-document gets a fetch_success datum', async (t) => {
  const ctx = context(t);
  const processor = await ParseOutputProcessor.create(ctx);
  const from = 'http://a.example/feed';
  const main = { text: 't', data: createParseData({ outlinks: [{ toUrl: from, anchor: 'self' }, { toUrl: 'http://a.example/x', anchor: 'x' }] }), isCanonical: true };
  const entry = { text: 'e', data: createParseData({ contentMeta: { 'nutch.fetch.time': ['1700000000000'] } }), isCanonical: false };
  const records = processor.recordsFor(createContent({ url: from }), { result: { url: from, parses: { [from]: main, 'http://a.example/feed#1': entry } }, signature: null }, 'seg');
  assert.deepEqual(linked(records.crawlParse), ['http://a.example/x']);
  const sub = records.crawlParse.find((r) => r.url === 'http://a.example/feed#1')!;
  assert.equal(sub.value.status, CrawlStatus.STATUS_FETCH_SUCCESS);
  assert.equal(sub.value.fetchTime, 1700000000000);
});

test('parse stage: a runaway parse is abandoned at parser.timeout, the page is written as failed, the stage goes on', async (t) => {
  const ctx = fixtureContext(t, {
    includeBuiltins: true,
    pluginFolders: [join(testPlugins, 'parse-runaway')],
    defines: { 'plugin.includes': 'parse-(html|runaway)', 'parser.worker.threads': '1', 'parser.timeout': '1' },
  });
  const loop = createContent({ url: 'http://a.example/loop', contentType: 'application/x-loop', content: new Uint8Array([1]), metadata: { [DatumMeta.FETCH_STATUS_KEY]: [String(CrawlStatus.STATUS_FETCH_SUCCESS)] } });
  const segPath = await segmentWith(ctx, t, [[loop, html('http://a.example/ok', '<a href="/next">n</a>')]]);
  const counters = await parse(ctx, { segment: segPath });
  assert.equal(counters['ParseSegment.timeouts'], 1);
  assert.equal(counters['ParserStatus.failed'], 1);
  assert.equal(counters['ParserStatus.success'], 1);
  const seg = await ctx.storage.openSegment(segPath);
  const data = await readAll(seg, 'parse_data');
  assert.match(data.find((r) => r.url === 'http://a.example/loop')!.value.status.args[0]!, /timed out/);
  assert.deepEqual(linked(await readAll(seg, 'crawl_parse')), ['http://a.example/next']);
  assert.ok(await seg.isComplete('parse_data'));
  await seg.close();
});

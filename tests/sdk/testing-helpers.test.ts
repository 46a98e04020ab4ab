/**
 * nutch-ts/testing: one helper per extension point, each driving real plugins (built-ins, a folder
 * plugin, a plugin object) the way the stages do, without a crawl.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createTestContext, fetchSchedule, getExtension, runHtmlParseFilter, runIndexingFilter, runIndexWriter, runParser,
  runProtocol, runSignature, runURLExemptionFilter, runURLFilter, runURLNormalizer, scoringFilters, type TestContextOptions,
} from '../../sdk/testing.js';
import { createCrawlDatum, CrawlStatus, createDocument } from '../../sdk/index.js';
import { startTestWeb } from '../web/test-web.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

function context(t: { after(fn: () => unknown): void }, opts: TestContextOptions = {}) {
  const dir = tempDir(t);
  const ctx = createTestContext({ cwd: dir, root: dir, env: { NUTCH_CONF_DIR: dir }, ...opts });
  t.after(() => ctx.close());
  return ctx;
}

test('runParser: the parsers of the content type, absolute outlinks and the signature, as a parse worker', async (t) => {
  const ctx = context(t, { config: { 'plugin.includes': 'parse-(html|text)|signature-md5' } });
  const html = '<html><head><title>Testing page</title></head><body><p>Hello parser</p><a href="/next.html">next</a></body></html>';
  const out = await runParser(ctx, { url: 'http://a.example/dir/page.html', body: html });
  assert.equal(out.parser, 'parse-html');
  const parse = out.result.parses['http://a.example/dir/page.html']!;
  assert.equal(parse.data.title, 'Testing page');
  assert.match(parse.text, /Hello parser/);
  assert.deepEqual(parse.data.outlinks.map((o) => o.toUrl), ['http://a.example/next.html']);
  assert.equal(out.signature?.length, 16);
  const text = await runParser(ctx, { url: 'http://a.example/x.txt', body: 'plain words', contentType: 'text/plain' });
  assert.equal(text.parser, 'parse-text');
});

test('runHtmlParseFilter: a folder plugin filter runs inside parse-html on the page given', async (t) => {
  const dir = join(tempDir(t), 'fx-htmlfilter');
  writeFile(join(dir, 'plugin.json'), { id: 'fx-htmlfilter', version: '1.0.0', main: 'index.mjs', extensions: [{ id: 'h1', point: 'HtmlParseFilter', implementation: 'H1' }] });
  writeFile(join(dir, 'index.mjs'), `export class H1 {
  filter(content, result) {
    for (const parse of Object.values(result.parses)) parse.data.parseMeta.h1 = [String(/<h1>([^<]*)<\\/h1>/.exec(new TextDecoder().decode(content.content))?.[1])];
    return result;
  }
}\n`);
  const ctx = context(t, { pluginFolders: [dir], config: { 'plugin.includes': 'parse-html|fx-htmlfilter' } });
  const parse = await runHtmlParseFilter(ctx, 'http://a.example/', '<html><body><h1>Big title</h1></body></html>');
  assert.deepEqual(parse.data.parseMeta.h1, ['Big title']);
});

test('runIndexingFilter: the document the index stage builds, through the chain; null when a filter drops it', async (t) => {
  const ctx = context(t, { config: { 'plugin.includes': 'index-basic|scoring-opic', 'indexingfilter.order': 'index-basic' } });
  const doc = await runIndexingFilter(ctx, { url: 'http://a.example/page', text: 'some words', title: 'A page' });
  assert.ok(doc);
  assert.deepEqual(doc.fields.id, ['http://a.example/page']);
  assert.deepEqual(doc.fields.title, ['A page']);
  assert.deepEqual(doc.fields.host, ['a.example']);
  const dropping = context(t, { plugins: [{ id: 'drop-all', extensions: [{ point: 'IndexingFilter', implementation: { filter: () => null } }] }], config: { 'plugin.includes': 'index-basic' } });
  assert.equal(await runIndexingFilter(dropping, { url: 'http://a.example/' }), null);
});

test('runIndexWriter: open with parameters, write, delete, commit, close', async (t) => {
  const ctx = context(t, { config: { 'plugin.includes': 'indexer-jsonl' } });
  const path = join(tempDir(t), 'out.jsonl');
  const doc = createDocument();
  doc.fields.id = ['http://a.example/'];
  doc.fields.title = ['A'];
  await runIndexWriter(ctx, 'indexer-jsonl', { write: [doc], delete: ['http://gone.example/'] }, { parameters: { path } });
  const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, 2);
  assert.match(JSON.stringify(lines[0]), /http:\/\/a\.example\//);
  assert.deepEqual([lines[1].action, lines[1].id], ['delete', 'http://gone.example/']);
});

test('runProtocol: the protocol the fetcher would select fetches from a real server', async (t) => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 2, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = context(t, { config: { 'plugin.includes': 'protocol-http', 'http.agent.name': 'testing-helpers' } });
  const out = await runProtocol(ctx, web.seeds[0]!);
  assert.equal(out.status.code, 1);
  assert.match(new TextDecoder().decode(out.content!.content), /Host 0 page 0/);
});

test('runURLFilter, runURLNormalizer, runURLExemptionFilter', async (t) => {
  const ctx = context(t, {
    config: { 'plugin.includes': 'urlnormalizer-basic|urlfilter-validator' },
    plugins: [{ id: 'exempt-same-host', extensions: [{ point: 'URLExemptionFilter', implementation: { filter: (from, to) => new URL(from).host === new URL(to).host } }] }],
  });
  assert.deepEqual(await runURLFilter(ctx, ['http://ok.example/', 'http://bad host/']), ['http://ok.example/', null]);
  assert.deepEqual(await runURLNormalizer(ctx, ['HTTP://A.example:80/x/../y']), ['http://a.example/y']);
  assert.deepEqual(await runURLExemptionFilter(ctx, [['http://a.example/', 'http://a.example/2'], ['http://a.example/', 'http://b.example/']]), [true, false]);
});

test('scoringFilters, fetchSchedule, runSignature, getExtension', async (t) => {
  const ctx = context(t, { config: { 'plugin.includes': 'scoring-opic|schedule-default|signature-md5' } });
  const datum = createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED, score: 2 });
  assert.equal((await scoringFilters(ctx)).generatorSortValue('http://a.example/', datum, 3), 6, 'OPIC sorts by score × initSort');
  const scheduled = (await fetchSchedule(ctx)).initializeSchedule('http://a.example/', createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED }));
  assert.equal(scheduled.fetchInterval, ctx.conf.getInt('db.fetch.interval.default'));
  const sig = await runSignature(ctx, { url: 'http://a.example/', body: 'bytes' }, { text: '', data: (await import('../../sdk/index.js')).createParseData(), isCanonical: true });
  assert.equal(Buffer.from(sig).toString('hex'), '4b3a6218bb3e3a7303e8a171a60fcf92');
  const opic = await getExtension(ctx, 'ScoringFilter');
  assert.equal(typeof opic.injectedScore, 'function');
  await assert.rejects(getExtension(ctx, 'URLFilter', 'urlfilter-regex'), { code: 'NUTCH_EXTENSION_NOT_FOUND' });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CrawlStatus, createCrawlDatum } from '../../core/model/crawl-datum.js';
import { createParseData } from '../../core/model/parse.js';
import { createDocument, type NutchDocument } from '../../core/model/nutch-document.js';
import type { IndexingContext } from '../../core/extension-points/indexing-filter.js';
import { indexContext } from './crawl-fixture.js';

const FETCHED = Date.UTC(2026, 0, 2);

function input(over: { url?: string; title?: string; text?: string; contentMeta?: Record<string, string[]>; parseMeta?: Record<string, string[]>; dbMeta?: Record<string, string[]>; reprUrl?: string; modifiedTime?: number; inlinks?: { fromUrl: string; anchor: string }[] } = {}): IndexingContext {
  const fetchDatum = createCrawlDatum({ status: CrawlStatus.STATUS_FETCH_SUCCESS, fetchTime: FETCHED, modifiedTime: over.modifiedTime ?? 0, metaData: over.reprUrl ? { _repr_: [over.reprUrl] } : {} });
  return {
    url: over.url ?? 'http://www.example.com/dir/page.html',
    parse: { text: over.text ?? 'some text', data: createParseData({ title: over.title ?? 'A title', contentMeta: over.contentMeta ?? {}, parseMeta: over.parseMeta ?? {} }), isCanonical: true },
    dbDatum: createCrawlDatum({ status: CrawlStatus.STATUS_DB_FETCHED, metaData: over.dbMeta ?? {} }),
    fetchDatum,
    inlinks: over.inlinks ? { inlinks: over.inlinks } : null,
  };
}

type Row = [string, Record<string, string>, ReturnType<typeof input>, Record<string, unknown[] | undefined>];

async function runFilter(t: { after(fn: () => unknown): void }, id: string, defines: Record<string, string>, ctx: IndexingContext): Promise<NutchDocument | null> {
  const nutch = indexContext(t, { writers: [] }, { 'indexingfilter.order': id, ...defines });
  const filters = await nutch.extensions.indexingFilters();
  assert.deepEqual(filters.chain, [id]);
  return filters.filter(createDocument(), ctx);
}

const table: [string, Row[]][] = [
  ['index-basic', [
    ['host, url, content, title, tstamp', {}, input(), { host: ['www.example.com'], url: ['http://www.example.com/dir/page.html'], content: ['some text'], title: ['A title'], tstamp: [new Date(FETCHED)] }],
    ['indexer.max.content.length and indexer.max.title.length cut', { 'indexer.max.content.length': '4', 'indexer.max.title.length': '1' }, input(), { content: ['some'], title: ['A'] }],
    ['an empty title is not added', {}, input({ title: '' }), { title: undefined }],
    ['the representative URL of a redirect, with the original in orig', {}, input({ reprUrl: 'http://example.com/' }), { url: ['http://example.com/'], orig: ['http://www.example.com/dir/page.html'], host: ['example.com'] }],
    ['cache from caching.forbidden unless none', {}, input({ parseMeta: { 'caching.forbidden': ['content'] } }), { cache: ['content'] }],
    ['caching.forbidden=none adds nothing', {}, input({ parseMeta: { 'caching.forbidden': ['none'] } }), { cache: undefined }],
  ]],
  ['index-anchor', [
    ['one anchor per text and source domain', {}, input({ inlinks: [{ fromUrl: 'http://a.com/1', anchor: 'x' }, { fromUrl: 'http://a.com/2', anchor: 'x' }, { fromUrl: 'http://b.com/', anchor: 'x' }, { fromUrl: 'http://b.com/', anchor: 'X' }, { fromUrl: 'http://c.com/', anchor: '' }] }), { anchor: ['x', 'x', 'X'] }],
    ['anchorIndexingFilter.deduplicate ignores case', { 'anchorIndexingFilter.deduplicate': 'true' }, input({ inlinks: [{ fromUrl: 'http://a.com/', anchor: 'Home' }, { fromUrl: 'http://b.com/', anchor: 'home' }] }), { anchor: ['Home'] }],
    ['no inlinks, no anchor field', {}, input(), { anchor: undefined }],
  ]],
  ['index-more', [
    ['type and its parts, contentLength, date and lastModified from Last-Modified', {}, input({ contentMeta: { 'Content-Type': ['text/html; charset=utf-8'], 'content-length': [' 1234 '], 'Last-Modified': ['Wed, 21 Oct 2015 07:28:00 GMT'] } }), { type: ['text/html', 'text', 'html'], contentLength: ['1234'], lastModified: [new Date('2015-10-21T07:28:00Z')], date: [new Date('2015-10-21T07:28:00Z')] }],
    ['moreIndexingFilter.indexMimeTypeParts=false: the type only', { 'moreIndexingFilter.indexMimeTypeParts': 'false' }, input({ contentMeta: { 'Content-Type': ['application/pdf'] } }), { type: ['application/pdf'] }],
    ['no Last-Modified: date from the modified time, else the fetch time', {}, input({ modifiedTime: 5000 }), { date: [new Date(5000)], lastModified: undefined }],
    ['no Content-Type: type from the URL extension', {}, input(), { date: [new Date(FETCHED)], type: ['text/html', 'text', 'html'] }],
    ['title from Content-Disposition when the page has none', {}, input({ title: '', contentMeta: { 'Content-Disposition': ['attachment; filename="report.pdf"'] } }), { title: ['report.pdf'] }],
  ]],
  ['index-metadata', [
    ['index.parse.md, index.content.md (any case), index.db.md', { 'index.parse.md': 'metatag.description,metatag.keywords', 'index.content.md': 'server', 'index.db.md': 'lang' }, input({ parseMeta: { 'metatag.description': ['desc'] }, contentMeta: { Server: ['nginx'] }, dbMeta: { lang: ['en'] } }), { 'metatag.description': ['desc'], 'metatag.keywords': undefined, server: ['nginx'], lang: ['en'] }],
    ['index.metadata.separator splits values', { 'index.parse.md': 'metatag.keywords', 'index.metadata.separator': ',' }, input({ parseMeta: { 'metatag.keywords': ['a, b,c'] } }), { 'metatag.keywords': ['a', 'b', 'c'] }],
  ]],
  ['index-static', [
    ['name:value pairs, several values', { 'index.static': 'source:nutch,lang:en fr' }, input(), { source: ['nutch'], lang: ['en', 'fr'] }],
    ['custom separators', { 'index.static': 'a=1 2;b=3', 'index.static.fieldsep': ';', 'index.static.keysep': '=' }, input(), { a: ['1', '2'], b: ['3'] }],
    ['an entry without a key separator is ignored', { 'index.static': 'broken,ok:1' }, input(), { broken: undefined, ok: ['1'] }],
  ]],
];

for (const [id, rows] of table) {
  for (const [name, defines, ctx, expected] of rows) {
    test(`${id}: ${name}`, async (t) => {
      const doc = await runFilter(t, id, defines, ctx);
      assert.ok(doc);
      for (const [field, values] of Object.entries(expected)) assert.deepEqual(doc.fields[field], values, field);
    });
  }
}

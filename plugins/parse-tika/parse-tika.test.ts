/**
 * parse-tika, table-driven, through the real parse worker pool (ParseUtil chooses the parser from
 * conf/parse-plugins.json, resolving a generic type from the bytes): every format built by a real
 * writer in test-documents.ts, each with a title phrase, a body phrase, metadata and a hyperlink;
 * then the bad documents, each a FAILED parse with its reason and the worker pool still serving.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestContext } from '../../sdk/testing.js';
import { createContent, ParseStatusCode, ParseStatusMinor } from '../../sdk/plugin.js';
import { parsePoolOf } from '../../core/parse/parsers.js';
import { detectContentType } from '../../core/parse/content-type-sniffer.js';
import { pdfDate } from './pdf-extractor.js';
import {
  buildDocx, buildEpub, buildOdf, buildPdf, buildPdfBomb, buildPptx, buildRtf, buildXlsx, buildZipBombDocx, type OfficeSpec,
} from './test-documents.js';

const ctx = createTestContext({
  cwd: mkdtempSync(join(tmpdir(), 'parse-tika-')),
  env: { NUTCH_CONF_DIR: join(tmpdir(), 'no-such-conf') },
  defines: { 'parser.worker.threads': '1', 'tika.zip.max.bytes': String(4 << 20), 'tika.pdf.max.bytes': String(16 << 20), 'parser.timeout': '120' },
});
after(() => ctx.close());

const base = 'http://127.0.0.1:9/docs/';

async function parseDoc(name: string, bytes: Uint8Array, contentType: string) {
  const url = base + name;
  const out = await parsePoolOf(ctx).parse(createContent({ url, baseUrl: url, content: bytes, contentType }));
  return { out, parse: out.result.parses[url]! };
}

const spec = (format: string): OfficeSpec => ({
  title: `${format} title quokka`,
  author: 'Ada Lovelace',
  created: '2024-03-05T10:30:00Z',
  modified: '2025-01-02T03:04:00Z',
  language: 'en-GB',
  body: [`The ${format} body mentions a pangolin`, `Second part of the ${format}`],
  links: [{ url: 'http://127.0.0.1:9/target.html', text: `${format} link text` }],
});

const OOXML = 'application/vnd.openxmlformats-officedocument';
interface Case {
  name: string;
  bytes: Uint8Array;
  contentType: string;
  detected?: string;
  language?: boolean;
  dates?: boolean;
  anchor?: boolean;
}
const cases: Case[] = [
  {
    name: 'pdf',
    bytes: buildPdf({
      title: 'pdf title quokka', author: 'Ada Lovelace', created: "D:20240305103000+00'00'", modified: 'D:20250102030400Z', language: 'en-GB',
      pages: [{ text: 'The pdf body mentions a pangolin\npdf link text', links: [{ uri: 'http://127.0.0.1:9/target.html', rect: [70, 688, 300, 700] }] }, { text: 'Second part of the pdf' }],
    }),
    contentType: 'application/pdf',
  },
  { name: 'docx', bytes: buildDocx(spec('docx')), contentType: `${OOXML}.wordprocessingml.document` },
  { name: 'xlsx', bytes: buildXlsx(spec('xlsx')), contentType: `${OOXML}.spreadsheetml.sheet` },
  { name: 'pptx', bytes: buildPptx(spec('pptx')), contentType: `${OOXML}.presentationml.presentation` },
  { name: 'odt', bytes: buildOdf('text', spec('odt')), contentType: 'application/vnd.oasis.opendocument.text' },
  { name: 'ods', bytes: buildOdf('spreadsheet', spec('ods')), contentType: 'application/vnd.oasis.opendocument.spreadsheet' },
  { name: 'odp', bytes: buildOdf('presentation', spec('odp')), contentType: 'application/vnd.oasis.opendocument.presentation' },
  { name: 'epub', bytes: buildEpub(spec('epub')), contentType: 'application/epub+zip' },
  { name: 'rtf', bytes: buildRtf(spec('rtf')), contentType: 'application/rtf', language: false },
  {
    name: 'xml',
    bytes: new TextEncoder().encode('<?xml version="1.0"?><catalog xml:lang="en-GB" xmlns:xlink="http://www.w3.org/1999/xlink"><title>xml title quokka</title><item>The xml body mentions a pangolin</item><ref xlink:href="http://127.0.0.1:9/target.html">xml link text</ref></catalog>'),
    contentType: 'text/xml',
    detected: 'application/xml',
    dates: false,
  },
  {
    name: 'svg',
    bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xml:lang="en-GB"><title>svg title quokka</title><text x="1" y="1">The svg body mentions a pangolin</text><a xlink:href="http://127.0.0.1:9/target.html"><text>svg link text</text></a></svg>'),
    contentType: 'image/svg+xml',
    dates: false,
  },
];

for (const c of cases) {
  for (const served of [c.contentType, 'application/octet-stream']) {
    test(`parse-tika: ${c.name} served as ${served}: text, title, metadata, anchored outlink`, async () => {
      const { out, parse } = await parseDoc(`doc.${c.name}`, c.bytes, served);
      assert.equal(parse.data.status.majorCode, ParseStatusCode.SUCCESS, parse.data.status.args.join(' '));
      assert.equal(out.parser, 'parse-tika');
      assert.equal(parse.data.title, `${c.name} title quokka`);
      assert.match(parse.text, new RegExp(`The ${c.name} body mentions a pangolin`));
      if (c.name !== 'xml' && c.name !== 'svg') assert.match(parse.text, new RegExp(`Second part of the ${c.name}`));
      assert.ok(!/<|w:t|xmlns/.test(parse.text), `no markup in the text: ${parse.text}`);
      const link = parse.data.outlinks.find((o) => o.toUrl === 'http://127.0.0.1:9/target.html');
      assert.ok(link, `outlinks: ${JSON.stringify(parse.data.outlinks)}`);
      assert.equal(link.anchor, `${c.name} link text`);
      const meta = parse.data.parseMeta;
      assert.deepEqual(meta['dc:title'], [`${c.name} title quokka`]);
      if (c.dates !== false) {
        assert.deepEqual(meta['dc:creator'], ['Ada Lovelace']);
        assert.match(meta['dcterms:created']?.[0] ?? '', /^2024-03-05T10:30/);
        if (c.name !== 'rtf') assert.match(meta['dcterms:modified']?.[0] ?? '', /^2025-01-02T03:04/);
      }
      if (c.language !== false) assert.deepEqual(meta['dc:language'], ['en-GB']);
      assert.equal(meta['Content-Type']?.[0], served === c.contentType ? c.contentType : c.detected ?? c.contentType);
    });
  }
}

test('parse-tika: magic bytes name each format when the type is generic', () => {
  for (const c of cases) assert.equal(detectContentType(c.bytes), c.detected ?? c.contentType, c.name);
  assert.equal(detectContentType(new TextEncoder().encode('<!DOCTYPE html><p>x')), 'text/html');
  assert.equal(detectContentType(new TextEncoder().encode('<?xml version="1.0"?><rss version="2.0"><channel/></rss>')), 'application/rss+xml');
  assert.equal(detectContentType(new TextEncoder().encode('<feed xmlns="http://www.w3.org/2005/Atom"></feed>')), 'application/atom+xml');
  assert.equal(detectContentType(new TextEncoder().encode('just words')), 'text/plain');
  assert.equal(detectContentType(new Uint8Array([0, 1, 2, 3, 250])), 'application/octet-stream');
});

test('parse-tika: a DOCX served as application/zip is read as a DOCX', async () => {
  const { parse } = await parseDoc('zipped.docx', buildDocx(spec('docx')), 'application/zip');
  assert.equal(parse.data.title, 'docx title quokka');
});

test('parse-tika: PDF dates become ISO 8601', () => {
  assert.equal(pdfDate("D:20240305103000+01'00'"), '2024-03-05T10:30:00+01:00');
  assert.equal(pdfDate('D:2024'), '2024-01-01T00:00:00');
  assert.equal(pdfDate('yesterday'), 'yesterday');
});

const docx = buildDocx(spec('docx'));
const bad: { name: string; bytes: Uint8Array; contentType: string; reason: RegExp; minor: number; failure: string }[] = [
  { name: 'encrypted PDF', bytes: buildPdf({ pages: [{ text: 'secret' }], encrypted: true }), contentType: 'application/pdf', reason: /encrypted and needs a password/, minor: ParseStatusMinor.FAILED_EXCEPTION, failure: 'encrypted' },
  { name: 'PDF of scanned pages (images, no text)', bytes: buildPdf({ title: 'scans', pages: [{ text: '', imageBytes: 200_000 }, { text: '', imageBytes: 200_000 }] }), contentType: 'application/pdf', reason: /the PDF has 2 page\(s\) and no text: scanned or image-only \(0\.4 MB; parse-tika does not OCR\)/, minor: ParseStatusMinor.FAILED_EXCEPTION, failure: 'no-text' },
  { name: 'not a PDF at all', bytes: new TextEncoder().encode('%PDF-1.4\nnothing here'), contentType: 'application/pdf', reason: /PDF/, minor: ParseStatusMinor.FAILED_INVALID_FORMAT, failure: 'invalid' },
  { name: 'truncated DOCX', bytes: docx.subarray(0, Math.floor(docx.length / 2)), contentType: `${OOXML}.wordprocessingml.document`, reason: /truncated/, minor: ParseStatusMinor.FAILED_TRUNCATED, failure: 'truncated' },
  { name: 'zip bomb in a DOCX', bytes: buildZipBombDocx(24 << 20), contentType: `${OOXML}.wordprocessingml.document`, reason: /expands more than tika\.zip\.max\.ratio \(100\) times its compressed bytes/, minor: ParseStatusMinor.FAILED_EXCEPTION, failure: 'bomb' },
  { name: 'PDF whose content stream is a 64 MB deflate bomb', bytes: buildPdfBomb(64 << 20), contentType: 'application/pdf', reason: /decoded streams grew past tika\.pdf\.max\.bytes/, minor: ParseStatusMinor.FAILED_EXCEPTION, failure: 'bomb' },
  { name: 'invalid XML', bytes: new TextEncoder().encode('<?xml version="1.0"?><a><b></a>'), contentType: 'application/xml', reason: /not well-formed XML.*1:/, minor: ParseStatusMinor.FAILED_INVALID_FORMAT, failure: 'invalid' },
  { name: 'entity bomb XML', bytes: new TextEncoder().encode('<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><l>&b;&b;&b;</l>'), contentType: 'application/xml', reason: /not well-formed XML/, minor: ParseStatusMinor.FAILED_INVALID_FORMAT, failure: 'invalid' },
  { name: 'legacy binary Word file', bytes: new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]), contentType: 'application/octet-stream', reason: /does not read content type "application\/x-tika-msoffice"/, minor: ParseStatusMinor.FAILED_EXCEPTION, failure: 'unsupported' },
  { name: 'ODT without content.xml', bytes: buildOdf('text', spec('odt')).subarray(0, 60), contentType: 'application/vnd.oasis.opendocument.text', reason: /truncated/, minor: ParseStatusMinor.FAILED_TRUNCATED, failure: 'truncated' },
];

for (const b of bad) {
  test(`parse-tika: ${b.name} is a failed parse with the reason`, async () => {
    const { parse } = await parseDoc(b.name.replace(/\W+/g, '-'), b.bytes, b.contentType);
    assert.equal(parse.data.status.majorCode, ParseStatusCode.FAILED);
    assert.equal(parse.data.status.minorCode, b.minor);
    assert.match(parse.data.status.args[0]!, b.reason);
    assert.match(parse.data.status.args[0]!, /^parse-tika: .*\(http:\/\/127\.0\.0\.1:9\/docs\//);
    assert.deepEqual(parse.data.parseMeta['tika.parse.failure'], [b.failure]);
    assert.equal(parse.text, '');
  });
}

test('parse-tika: after every bad document the same worker still parses', async () => {
  const pool = parsePoolOf(ctx);
  const { parse } = await parseDoc('after.docx', docx, `${OOXML}.wordprocessingml.document`);
  assert.equal(parse.data.status.majorCode, ParseStatusCode.SUCCESS);
  assert.equal(pool.stats.crashes, 0);
  assert.equal(pool.stats.timeouts, 0);
});

test('parse-tika: tika.text.max.chars cuts the text, the parse still succeeds', async () => {
  const small = createTestContext({
    cwd: mkdtempSync(join(tmpdir(), 'parse-tika-')),
    env: { NUTCH_CONF_DIR: join(tmpdir(), 'no-such-conf') },
    defines: { 'parser.worker.threads': '1', 'tika.text.max.chars': '12' },
  });
  try {
    const url = `${base}cut.rtf`;
    const out = await parsePoolOf(small).parse(createContent({ url, content: buildRtf(spec('rtf')), contentType: 'application/rtf' }));
    const parse = out.result.parses[url]!;
    assert.equal(parse.data.status.majorCode, ParseStatusCode.SUCCESS);
    assert.equal(parse.text, 'The rtf body');
  } finally {
    await small.close();
  }
});

test('parse-tika: a 50 MB PDF of images gives its text (pdf.js never decodes the images)', async () => {
  const bytes = buildPdf({ title: 'image heavy', pages: [{ text: 'caption of the scanned pages' }], padding: 50 });
  assert.ok(bytes.length > 50 << 20);
  const { parse } = await parseDoc('images.pdf', bytes, 'application/pdf');
  assert.equal(parse.data.status.majorCode, ParseStatusCode.SUCCESS, parse.data.status.args.join(' '));
  assert.match(parse.text, /caption of the scanned pages/);
  assert.equal(parsePoolOf(ctx).stats.crashes, 0);
});

/**
 * Acceptance (issue 20, parse-tika): the test web serves real documents of every format parse-tika
 * reads (built by real writers: plugins/parse-tika/test-documents.ts), each with a unique phrase in its
 * title and another in its body, plus bad documents. A real `nutch crawl -i` (child process, default
 * plugin.includes) fetches and parses them; `nutch search` finds every good one by either phrase;
 * `parsechecker` shows a document's title, metadata and outlinks; every bad one is a counted failed
 * parse with its reason in `readseg -dump` and a log line naming its URL, and the crawl goes on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fixtureContext } from '../helpers/context.js';
import { runNutch, spawnNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestWeb, type TestWebFile } from '../web/test-web.js';
import {
  buildDocx, buildEpub, buildOdf, buildPdf, buildPptx, buildRtf, buildXlsx, buildZipBombDocx, type OfficeSpec,
} from '../../plugins/parse-tika/test-documents.js';

const OOXML = 'application/vnd.openxmlformats-officedocument';
const words = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'heron', 'indigo', 'jasper', 'kelp', 'lichen'];

test('nutch crawl -i over PDF, Office, OpenDocument, EPUB, RTF and XML: search finds each by title and body phrase; bad documents fail with reasons', async (t) => {
  const files: Record<string, TestWebFile> = {};
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 1, linksPerPage: 0, files });
  t.after(() => web.close());
  const home = web.url(0, '/');
  // Each good document: "<word> title phrase" in its title, "<word> body phrase" in its body, a link home.
  const spec = (i: number): OfficeSpec => ({
    title: `${words[i]}zor title phrase`,
    author: `Author ${words[i]}`,
    created: '2024-03-05T10:30:00Z',
    modified: '2025-01-02T03:04:00Z',
    language: 'en-GB',
    body: [`The ${words[i]}qua body phrase is here`],
    links: [{ url: home, text: `home from ${words[i]}` }],
  });
  const good: { path: string; type: string | null; body: Uint8Array | string }[] = [
    {
      path: '/docs/report.pdf', type: 'application/pdf',
      body: buildPdf({ title: spec(0).title, author: spec(0).author, language: 'en-GB', pages: [{ text: `${spec(0).body[0]}\n${spec(0).links![0]!.text}`, links: [{ uri: home, rect: [70, 688, 300, 700] }] }] }),
    },
    { path: '/docs/plan.docx', type: `${OOXML}.wordprocessingml.document`, body: buildDocx(spec(1)) },
    { path: '/docs/figures.xlsx', type: `${OOXML}.spreadsheetml.sheet`, body: buildXlsx(spec(2)) },
    { path: '/docs/deck.pptx', type: `${OOXML}.presentationml.presentation`, body: buildPptx(spec(3)) },
    { path: '/docs/notes.odt', type: 'application/vnd.oasis.opendocument.text', body: buildOdf('text', spec(4)) },
    { path: '/docs/table.ods', type: 'application/vnd.oasis.opendocument.spreadsheet', body: buildOdf('spreadsheet', spec(5)) },
    { path: '/docs/slides.odp', type: 'application/vnd.oasis.opendocument.presentation', body: buildOdf('presentation', spec(6)) },
    { path: '/docs/book.epub', type: 'application/epub+zip', body: buildEpub(spec(7)) },
    { path: '/docs/letter.rtf', type: 'application/rtf', body: buildRtf(spec(8)) },
    { path: '/docs/data.xml', type: 'text/xml', body: `<?xml version="1.0"?><doc xml:lang="en"><title>${spec(9).title}</title><p>${spec(9).body[0]}</p><a href="${home}">home</a></doc>` },
    { path: '/docs/drawing.svg', type: 'image/svg+xml', body: `<svg xmlns="http://www.w3.org/2000/svg"><title>${spec(10).title}</title><text>${spec(10).body[0]}</text></svg>` },
    // Served as application/octet-stream and without any Content-Type: the magic bytes decide.
    { path: '/download?id=7', type: 'application/octet-stream', body: buildDocx(spec(11)) },
  ];
  const docx = buildDocx(spec(1));
  const bad: { path: string; type: string; reason: RegExp }[] = [
    { path: '/bad/encrypted.pdf', type: 'application/pdf', reason: /encrypted and needs a password/ },
    { path: '/bad/truncated.docx', type: `${OOXML}.wordprocessingml.document`, reason: /truncated/ },
    { path: '/bad/bomb.docx', type: `${OOXML}.wordprocessingml.document`, reason: /expands more than tika\.zip\.max\.ratio \(100\) times its compressed bytes/ },
    { path: '/bad/invalid.xml', type: 'application/xml', reason: /not well-formed XML/ },
    { path: '/bad/scanned.pdf', type: 'application/pdf', reason: /the PDF has 3 page\(s\) and no text: scanned or image-only/ },
  ];
  const badBodies: Record<string, Uint8Array> = {
    '/bad/encrypted.pdf': buildPdf({ pages: [{ text: 'locked' }], encrypted: true }),
    '/bad/truncated.docx': docx.subarray(0, docx.length >> 1),
    '/bad/bomb.docx': buildZipBombDocx(32 << 20),
    '/bad/invalid.xml': new TextEncoder().encode('<?xml version="1.0"?><a><b>unclosed</a>'),
    // small here (within http.content.limit); bench/parse-tika.bench.ts fails a 50 MB one and measures its RSS
    '/bad/scanned.pdf': buildPdf({ title: 'scans', pages: [1, 2, 3].map(() => ({ text: '', imageBytes: 250_000 })) }),
  };
  for (const g of good) files[g.path.split('?')[0]!] = { contentType: g.type, body: g.body };
  for (const b of bad) files[b.path] = { contentType: b.type, body: badBodies[b.path]! };

  const cwd = tempDir(t);
  mkdirSync(join(cwd, 'urls'));
  const seeds = [...good.map((g) => web.url(0, g.path)), ...bad.map((b) => web.url(0, b.path))];
  writeFileSync(join(cwd, 'urls', 'seeds.txt'), seeds.join('\n') + '\n');
  writeFileSync(join(cwd, 'nutch-site.json'), JSON.stringify({
    'http.agent.name': 'docs-test', 'fetcher.server.delay': 0, 'fetcher.server.min.delay': 0, 'parser.worker.threads': 1,
    'parser.timeout': 120, 'tika.zip.max.bytes': 8 << 20,
    // Query strings are dropped by the default regex-urlfilter: allow this one download URL.
    'urlfilter.regex.rules': '+.',
  }));
  const crawl = await spawnNutch(['crawl', '-i', '-s', 'urls', 'crawl', '1'], { cwd });
  assert.equal(crawl.code, 0, crawl.stderr);
  // The stage log names each bad document's URL.
  for (const b of bad) assert.ok(crawl.stderr.includes(`Error parsing: ${web.url(0, b.path)}`), `log names ${b.path}:\n${crawl.stderr.slice(-3000)}`);

  for (const [i, g] of good.entries()) {
    for (const phrase of [`${words[i]}zor title phrase`, `${words[i]}qua body phrase`]) {
      const s = await runNutch(['search', 'crawl', `"${phrase}"`, '-json'], { cwd });
      assert.equal(s.code, 0, s.stderr);
      const hits = s.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
      assert.deepEqual(hits.map((h) => h.url), [web.url(0, g.path)], `search "${phrase}" for ${g.path}`);
      assert.equal(hits[0].title, `${words[i]}zor title phrase`);
    }
  }

  // readseg -dump: each bad document's parse status carries the reason and its URL.
  const segment = basename((await fixtureContext(t, { cwd }).storage.listSegments(join(cwd, 'crawl', 'segments')))[0]!);
  const dump = await runNutch(['readseg', '-dump', join('crawl', 'segments', segment), 'out', '-nocontent', '-noparsetext'], { cwd });
  assert.equal(dump.code, 0, dump.stderr);
  const dumped = readFileSync(join(cwd, 'out', 'dump'), 'utf8');
  for (const b of bad) {
    const url = web.url(0, b.path);
    const record = dumped.split(/^Recno::/m).find((r) => r.includes(`URL:: ${url}\n`) && r.includes('ParseData::'));
    assert.ok(record, `${b.path} has a parse_data record`);
    assert.match(record, /Status: failed\(2,20\d\), args=\[parse-tika: /, b.path);
    assert.match(record, b.reason, b.path);
  }
  assert.match(crawl.stdout + crawl.stderr, /ParserStatus\.failed=5\b|failed=5\b/);

  // parsechecker: title, metadata and outlinks of a document.
  const pc = await runNutch(['parsechecker', web.url(0, '/docs/plan.docx')], { cwd });
  assert.equal(pc.code, 0, pc.stderr);
  assert.match(pc.stdout, /Title: basaltzor title phrase/);
  assert.match(pc.stdout, new RegExp(`outlink: toUrl: ${home.replace(/[.?*+^$()[\]\\/]/g, '\\$&')} anchor: home from basalt`));
  assert.match(pc.stdout, /dc:creator=Author basalt/);
  assert.match(pc.stdout, /dcterms:created=2024-03-05T10:30:00Z/);
  assert.match(pc.stdout, /dc:language=en-GB/);

  // and of a PDF (Info dictionary, catalog /Lang, a link annotation) and an EPUB (OPF metadata, a chapter link)
  const homeRe = home.replace(/[.?*+^$()[\]\\/]/g, '\\$&');
  for (const [path, i, anchor] of [['/docs/report.pdf', 0, ''], ['/docs/book.epub', 7, ' home from heron']] as const) {
    const r = await runNutch(['parsechecker', web.url(0, path)], { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`Title: ${words[i]}zor title phrase`), path);
    assert.match(r.stdout, new RegExp(`dc:creator=Author ${words[i]}`), path);
    assert.match(r.stdout, /dc:language=en-GB/, path);
    assert.match(r.stdout, new RegExp(`outlink: toUrl: ${homeRe} anchor:${anchor}`), path);
  }
});

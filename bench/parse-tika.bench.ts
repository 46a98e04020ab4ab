/**
 * parse-tika throughput per format, and the memory a hostile document costs. Documents are built by
 * the same writers as the tests (plugins/parse-tika/test-documents.ts), each holding 40–120 K characters
 * of text (zipped formats compress it to a few KB), and parsed through the parse worker pool (one worker, as a fetch with inline parse on 2
 * cores runs it): MB/s of document bytes and documents/s. Then the bad documents of issue 20 —
 * encrypted PDF, truncated DOCX, zip bomb, invalid XML and a 50 MB PDF of scanned (image-only) pages —
 * each must end as a failed parse with its reason; they run first, so the process's peak RSS (main
 * thread and worker, getrusage) after them is theirs, reported against the issue's 600 MB ceiling. Load average is printed beside the figures.
 */
import { loadavg, tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { createContext } from '../core/crawl/context.js';
import { silentLogger } from '../core/log.js';
import { createContent } from '../core/model/content.js';
import { parsePoolOf } from '../core/parse/parsers.js';
import {
  buildDocx, buildEpub, buildOdf, buildPdf, buildPptx, buildRtf, buildXlsx, buildZipBombDocx, type OfficeSpec,
} from '../plugins/parse-tika/test-documents.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const OOXML = 'application/vnd.openxmlformats-officedocument';
const words = 'crawler fetch segment robots queue parse index link anchor host politeness delay content metadata signature score outlink'.split(' ');
const sentence = (i: number) => Array.from({ length: 14 }, (_, k) => words[(i * 5 + k) % words.length]).join(' ') + '.';
const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => `${sentence(i)} ${sentence(i + 1)} ${sentence(i + 2)}`);
const office = (name: string, n: number): OfficeSpec => ({ title: `${name} bench`, author: 'Bench', body: paragraphs(n), links: [{ url: 'http://bench.example/', text: 'home' }] });

const formats: { name: string; type: string; bytes: Uint8Array }[] = [
  { name: 'pdf (100 pages)', type: 'application/pdf', bytes: buildPdf({ title: 'pdf bench', pages: Array.from({ length: 100 }, (_, p) => ({ text: paragraphs(4).map((t, i) => `${p} ${i} ${t}`).join('\n') })) }) },
  { name: 'docx', type: `${OOXML}.wordprocessingml.document`, bytes: buildDocx(office('docx', 400)) },
  { name: 'xlsx', type: `${OOXML}.spreadsheetml.sheet`, bytes: buildXlsx(office('xlsx', 400)) },
  { name: 'pptx', type: `${OOXML}.presentationml.presentation`, bytes: buildPptx(office('pptx', 200)) },
  { name: 'odt', type: 'application/vnd.oasis.opendocument.text', bytes: buildOdf('text', office('odt', 400)) },
  { name: 'ods', type: 'application/vnd.oasis.opendocument.spreadsheet', bytes: buildOdf('spreadsheet', office('ods', 400)) },
  { name: 'epub', type: 'application/epub+zip', bytes: buildEpub(office('epub', 400)) },
  { name: 'rtf', type: 'application/rtf', bytes: buildRtf(office('rtf', 400)) },
  { name: 'xml', type: 'application/xml', bytes: new TextEncoder().encode(`<?xml version="1.0"?><docs>${paragraphs(400).map((p) => `<p>${p}</p>`).join('')}</docs>`) },
];

const maxRssMb = () => process.resourceUsage().maxRSS / 1024;

async function main(): Promise<void> {
  const cwd = mkdtempSync(join(tmpdir(), 'parse-tika-bench-'));
  const ctx = createContext({ cwd, env: { NUTCH_CONF_DIR: cwd }, logger: silentLogger, defines: { 'plugin.includes': 'parse-(html|tika)', 'parser.worker.threads': '1', 'parser.timeout': '120', 'tika.zip.max.bytes': String(8 << 20) } });
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  try {
    const pool = parsePoolOf(ctx);
    await pool.ready();
    const docx = buildDocx(office('docx', 20));
    const bad: { name: string; type: string; bytes: () => Uint8Array }[] = [
      { name: 'encrypted PDF', type: 'application/pdf', bytes: () => buildPdf({ pages: [{ text: 'locked' }], encrypted: true }) },
      { name: 'truncated DOCX', type: `${OOXML}.wordprocessingml.document`, bytes: () => docx.subarray(0, docx.length >> 1) },
      { name: 'zip bomb DOCX (64 MB inflated)', type: `${OOXML}.wordprocessingml.document`, bytes: () => buildZipBombDocx(64 << 20) },
      { name: 'invalid XML', type: 'application/xml', bytes: () => new TextEncoder().encode('<?xml version="1.0"?><a><b></a>') },
      { name: '50 MB PDF of scanned pages', type: 'application/pdf', bytes: () => buildPdf({ title: 'scans', pages: Array.from({ length: 50 }, () => ({ text: '', imageBytes: 1 << 20 })) }) },
    ];
    for (const b of bad) {
      const bytes = b.bytes();
      const url = `http://bench.example/bad/${b.name.replace(/\W+/g, '-')}`;
      const start = performance.now();
      const out = await pool.parse(createContent({ url, baseUrl: url, content: bytes, contentType: b.type }));
      const p = out.result.parses[url]!;
      const outcome = p.data.status.majorCode === 2 ? `failed: ${p.data.status.args[0]}` : `NOT failed (status ${p.data.status.majorCode})`;
      console.log(`${b.name.padEnd(32)} ${`${(bytes.length / 1048576).toFixed(1)} MB`.padStart(8)}  ${(performance.now() - start).toFixed(0).padStart(6)} ms  ${outcome}`);
    }
    const peakBad = maxRssMb();
    console.log(`peak RSS after the bad documents (main thread + parse worker, measured first): ${peakBad.toFixed(0)} MB — issue 20 ceiling 600 MB: ${peakBad < 600 ? 'met' : 'NOT met'}; pool crashes: ${pool.stats.crashes}`);

    console.log(`${'format'.padEnd(18)} ${'size'.padStart(8)}  ${'MB/s'.padStart(6)}  ${'docs/s'.padStart(7)}  text chars`);
    for (const f of formats) {
      const url = `http://bench.example/${f.name.split(' ')[0]}`;
      const parse = async () => {
        const out = await pool.parse(createContent({ url, baseUrl: url, content: f.bytes, contentType: f.type }));
        const p = out.result.parses[url]!;
        if (p.data.status.majorCode !== 1) throw new Error(`${f.name} did not parse: ${p.data.status.args.join(' ')}`);
        return p.text.length;
      };
      const chars = await parse();
      const start = performance.now();
      let runs = 0;
      while (performance.now() - start < SECONDS * 1000) {
        await parse();
        runs++;
      }
      const secs = (performance.now() - start) / 1000;
      console.log(`${f.name.padEnd(18)} ${`${(f.bytes.length / 1024).toFixed(0)} KB`.padStart(8)}  ${((runs * f.bytes.length) / 1e6 / secs).toFixed(1).padStart(6)}  ${(runs / secs).toFixed(1).padStart(7)}  ${chars}`);
    }

    console.log(`peak RSS after the throughput runs too: ${maxRssMb().toFixed(0)} MB`);
    console.log(`load average at end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    await ctx.close();
  }
}

await main();

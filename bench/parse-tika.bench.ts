/**
 * parse-tika: the memory hostile documents cost a crawl, then throughput per format.
 *
 * Memory, as issue 20 states it ("the crawl goes on and peak RSS stays under 600 MB"): `nutch crawl -i`
 * run as operators run it — the built CLI in its own process (bench/lib/nutch-measured.mjs reports its
 * peak RSS, Linux VmHWM: its own, not the bench process's), default plugin.includes and parse workers — over a test web (served from
 * this process) of 20 HTML pages, good documents and the bad documents of issue 20: encrypted PDF,
 * truncated DOCX, zip bomb DOCX, invalid XML and a 50 MB PDF of scanned (image-only) pages, plus a
 * 1 MB PDF whose content stream is a 512 MB deflate bomb (http.content.limit raised to 64 MiB so the
 * 50 MB PDF is fetched whole). Each bad document must end as a failed parse with its reason.
 *
 * Throughput: documents built by the same writers as the tests (plugins/parse-tika/test-documents.ts),
 * each holding 40–120 K characters of text, parsed through the parse worker pool of this process (one
 * worker): MB/s of document bytes and documents/s. Load average is printed beside the figures.
 */
import { loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestWeb, type TestWebFile } from '../tests/web/test-web.js';
import { createContext } from '../core/crawl/context.js';
import { silentLogger } from '../core/log.js';
import { createContent } from '../core/model/content.js';
import { parsePoolOf } from '../core/parse/parsers.js';
import { runChild } from './lib/run-child.js';
import {
  buildDocx, buildEpub, buildOdf, buildPdf, buildPdfBomb, buildPptx, buildRtf, buildXlsx, buildZipBombDocx, type OfficeSpec,
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

const root = fileURLToPath(new URL('..', import.meta.url));

/** The bad documents of issue 20 and a PDF deflate bomb, crawled with HTML pages and good documents by the built CLI. */
async function crawlBadDocuments(): Promise<void> {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  const docx = buildDocx(office('docx', 20));
  const bad: Record<string, TestWebFile & { name: string }> = {
    '/bad/encrypted.pdf': { name: 'encrypted PDF', contentType: 'application/pdf', body: buildPdf({ pages: [{ text: 'locked' }], encrypted: true }) },
    '/bad/truncated.docx': { name: 'truncated DOCX', contentType: `${OOXML}.wordprocessingml.document`, body: docx.subarray(0, docx.length >> 1) },
    '/bad/bomb.docx': { name: 'zip bomb DOCX (64 MB inflated)', contentType: `${OOXML}.wordprocessingml.document`, body: buildZipBombDocx(64 << 20) },
    '/bad/invalid.xml': { name: 'invalid XML', contentType: 'application/xml', body: '<?xml version="1.0"?><a><b></a>' },
    '/bad/scanned.pdf': { name: '50 MB PDF of scanned pages', contentType: 'application/pdf', body: buildPdf({ title: 'scans', pages: Array.from({ length: 50 }, () => ({ text: '', imageBytes: 1 << 20 })) }) },
    '/bad/bomb.pdf': { name: 'PDF, 512 MB deflate bomb', contentType: 'application/pdf', body: buildPdfBomb(512 << 20) },
  };
  const files: Record<string, TestWebFile> = { ...bad };
  for (const f of formats) files[`/docs/${f.name.split(' ')[0]}`] = { contentType: f.type, body: f.bytes };
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 20, linksPerPage: 5, files });
  const dir = mkdtempSync(join(tmpdir(), 'parse-tika-crawl-bench-'));
  try {
    writeFileSync(join(dir, 'seeds.txt'), [web.url(0, '/'), ...Object.keys(files).map((p) => web.url(0, p))].join('\n') + '\n');
    const argv = ['crawl', '-i', '-s', 'seeds.txt', '-D', 'http.agent.name=nutch-ts-bench', '-D', 'fetcher.server.delay=0', '-D', 'fetcher.server.min.delay=0',
      '-D', `http.content.limit=${64 << 20}`, '-D', 'parser.timeout=120', 'crawl', '3'];
    console.log(`load average before the crawl: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const run = await runChild(process.execPath, [join(root, 'bench', 'lib', 'nutch-measured.mjs'), ...argv], dir);
    if (run.code !== 0) throw new Error(`nutch crawl exited ${run.code}:\n${run.stderr.slice(-3000)}`);
    for (const [path, b] of Object.entries(bad)) {
      const line = run.stderr.split('\n').find((l) => l.includes(`Error parsing: ${web.url(0, path)}:`));
      const reason = line ? /parse-tika: (.*?) \(http/.exec(line)?.[1] ?? line : 'NOT failed';
      console.log(`${b.name.padEnd(32)} ${`${(b.body.length / 1048576).toFixed(1)} MB`.padStart(8)}  ${line ? 'failed' : 'NOT failed'}: ${reason}`);
    }
    const usage = JSON.parse(/RESOURCE-USAGE (\{.*\})/.exec(run.stderr)![1]!) as { maxRssKb: number; cpuUs: number };
    const peak = usage.maxRssKb / 1024;
    console.log(/^\s+parse:.*$/m.exec(run.stdout)?.[0]?.trim() ?? '');
    console.log(`nutch crawl peak RSS (main thread and parse workers): ${peak.toFixed(0)} MB — issue 20 ceiling 600 MB: ${peak < 600 ? 'met' : 'NOT met'}; CPU ${(usage.cpuUs / 1e6).toFixed(1)} s`);
    console.log(`load average after the crawl: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  await crawlBadDocuments();
  const cwd = mkdtempSync(join(tmpdir(), 'parse-tika-bench-'));
  const ctx = createContext({ cwd, env: { NUTCH_CONF_DIR: cwd }, logger: silentLogger, defines: { 'plugin.includes': 'parse-(html|tika)', 'parser.worker.threads': '1', 'parser.timeout': '120' } });
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  try {
    const pool = parsePoolOf(ctx);
    await pool.ready();
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

    console.log(`load average at end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    await ctx.close();
  }
}

await main();

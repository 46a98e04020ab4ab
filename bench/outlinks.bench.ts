/**
 * Parse memory on a page of very many outlinks (issue 18): one ~35 MiB page of 1,000,000 distinct
 * `<a href>` stored in a segment, then `nutch parse` run as operators run it (its own process, from
 * source through tsx), with db.max.outlinks.per.page=-1 (keep all) so only parser.outlinks.ceiling bounds
 * what parse holds. Reports the peak RSS of the parse process (ru_maxrss: every thread, parse workers
 * included), wall time and the outlink counters, once per ceiling in BENCH_CEILINGS (default: the
 * shipped default, which is also the most allowed). parser.timeout=-1, so a loaded machine shows the
 * memory of a parse that finished, not of one abandoned. Target: peak RSS < 600 MB.
 * Env: BENCH_LINKS (1000000), BENCH_CEILINGS (comma-separated; empty entry = the default).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createContext } from '../core/crawl/context.js';
import { silentLogger } from '../core/log.js';
import { createContent } from '../core/model/content.js';
import { CrawlStatus, DatumMeta } from '../core/model/crawl-datum.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const links = Number(process.env.BENCH_LINKS ?? 1_000_000);
const ceilings = (process.env.BENCH_CEILINGS ?? '').split(',');

function bigPage(n: number): Uint8Array {
  const parts: string[] = ['<!DOCTYPE html><html><head><title>Many links</title></head><body>\n'];
  for (let i = 0; i < n; i++) parts.push(`<a href="/l/${i}">l${i}</a>\n`);
  parts.push('</body></html>\n');
  return new TextEncoder().encode(parts.join(''));
}

async function writeSegment(dir: string): Promise<{ segment: string; bytes: number }> {
  const ctx = createContext({ cwd: dir, logger: silentLogger, includeBuiltins: true });
  try {
    const seg = await ctx.storage.createSegment(join(dir, 'crawl', 'segments'), '20260101000000');
    const bytes = bigPage(links);
    const w = await seg.openWriter('content', 0, { totalPartitions: 1 });
    await w.append([{ url: 'http://127.0.0.1/many', value: createContent({ url: 'http://127.0.0.1/many', contentType: 'text/html', content: bytes, metadata: { [DatumMeta.FETCH_STATUS_KEY]: [String(CrawlStatus.STATUS_FETCH_SUCCESS)] } }) }]);
    await w.finish();
    await w.close();
    await seg.close();
    return { segment: seg.path, bytes: bytes.length };
  } finally {
    await ctx.close();
  }
}

// The CLI from source, reporting its own getrusage at exit (peak RSS covers its worker threads).
const report = `data:text/javascript,process.on('exit',()=>{const r=process.resourceUsage();process.stderr.write('\\nRESOURCE-USAGE '+JSON.stringify({maxRssKb:r.maxRSS})+'\\n')})`;

function runParse(dir: string, segment: string, ceiling: string): Promise<{ code: number; stderr: string; ms: number }> {
  const defines = ['-D', 'db.max.outlinks.per.page=-1', '-D', 'parser.timeout=-1', '-D', 'parser.worker.threads=1', '-D', 'http.agent.name=bench'];
  if (ceiling) defines.push('-D', `parser.outlinks.ceiling=${ceiling}`);
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), '--import', report, join(root, 'sdk', 'cli', 'main.ts'), 'parse', segment, '-force', ...defines], { cwd: dir, env: { PATH: process.env.PATH, NUTCH_CONF_DIR: dir } });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdout.resume();
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stderr, ms: Date.now() - started }));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'nutch-outlinks-bench-'));
try {
  writeFileSync(join(dir, 'nutch-site.json'), '{}\n');
  const { segment, bytes } = await writeSegment(dir);
  console.log(`page: ${links.toLocaleString('en')} outlinks, ${(bytes / 2 ** 20).toFixed(1)} MiB; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const ceiling of ceilings) {
    const r = await runParse(dir, segment, ceiling);
    const rss = /RESOURCE-USAGE (\{.*\})/.exec(r.stderr);
    const counters = (r.stderr.match(/outlinks\.\w+=\d+/g) ?? []).join(' ');
    const peakMb = rss ? JSON.parse(rss[1]!).maxRssKb / 1024 : NaN;
    console.log(`parser.outlinks.ceiling=${ceiling || '(default)'}`.padEnd(36) + ` exit ${r.code}  peak RSS ${peakMb.toFixed(0)} MB (target < 600)  ${(r.ms / 1000).toFixed(1)} s  ${counters}`);
    if (r.code !== 0 || process.env.BENCH_VERBOSE) console.log(r.stderr.slice(-3000));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

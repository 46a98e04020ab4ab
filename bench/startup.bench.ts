/**
 * Start-up of every `nutch` command (the built binary, dist/: run `npm run build` first) against
 * `node -e 0`. Issue 17's targets: `--help` at most 2× node's own start, every command ≤ 0.35 s,
 * `nutch search` ≤ 0.4 s end to end.
 *
 * What "start-up" means here (docs/performance.md, "Start-up"): the whole run of the command, from
 * exec to exit, on a tiny crawl directory made once before the runs (2 hosts, one crawled round:
 * a few dozen CrawlDb records, 2-page segments), so that its own work — a few records read or
 * written, 2 pages fetched from a test web on 127.0.0.1 — is negligible and what is measured is what
 * the command pays before and around it: Node's start, module loading, configuration, plugin
 * discovery, opening stores, the HTTP client, a parse worker. A command that writes runs on a fresh
 * copy of that directory each time (the copy is not timed). `nutch server`, which runs until stopped,
 * is timed from exec to its "listening" line. Every figure is the median of BENCH_STARTUP_RUNS runs
 * (default 5): wall time, and CPU time (user + system of all the process's threads, which a loaded
 * machine distorts far less than wall time), with the load average before and after.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createNutch } from '../sdk/create-nutch.js';
import { silentLogger } from '../core/log.js';
import { startTestWebProcess } from './lib/test-web-process.js';

const bin = resolve('dist/sdk/cli/main.js');
if (!existsSync(bin)) {
  console.error('startup bench: dist/sdk/cli/main.js is missing; run `npm run build` first');
  process.exit(1);
}
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
/** Only the rows whose name contains one of these (comma-separated), e.g. BENCH_STARTUP_ONLY=fetch,parse;
 * BENCH_STARTUP_KEEP=1 keeps the crawl directory (its path is printed); BENCH_STARTUP_CPU_PROF=<dir> writes a
 * V8 CPU profile of every run there (node --cpu-prof: the figures then include the profiler's cost). */
const ONLY = process.env.BENCH_STARTUP_ONLY?.split(',').filter(Boolean);
const PROFILE = process.env.BENCH_STARTUP_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', resolve(process.env.BENCH_STARTUP_CPU_PROF)] : [];
const TICK = 100; // clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux)

interface Sample { wall: number; cpu: number; code: number | null; stderr: string }

/** One run to exit under GNU time: wall from this process, CPU = the child's user + system. */
function runOnce(args: string[], cwd: string, stdin?: string): Sample {
  const started = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %U %S', process.execPath, ...args], { cwd, encoding: 'utf8', input: stdin ?? '', env: { ...process.env, NUTCH_CONF_DIR: cwd } });
  const wall = (performance.now() - started) / 1000;
  const line = r.stderr.trim().split('\n').reverse().find((l) => l.startsWith('TIME ')) ?? 'TIME NaN NaN';
  const [, user, sys] = line.split(' ').map(Number);
  return { wall, cpu: user! + sys!, code: r.status, stderr: r.stderr };
}

/** One run until `ready` appears on stdout; CPU from /proc/<pid>/stat at that moment; then SIGTERM. */
function runUntil(args: string[], cwd: string, ready: RegExp): Promise<Sample> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, NUTCH_CONF_DIR: cwd }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let sample: Sample | undefined;
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (sample || !ready.test(out)) return;
      const wall = (performance.now() - started) / 1000;
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime, fields 14 and 15 of proc(5), counted from the state field (3)
      sample = { wall, cpu: (Number(fields[11]) + Number(fields[12])) / TICK, code: 0, stderr: '' };
      child.kill('SIGTERM');
    });
    child.once('error', fail);
    child.once('exit', (code) => (sample ? done({ ...sample, stderr: err }) : fail(new Error(`exited (${code}) before it was ready: ${err.slice(-2000)}`))));
  });
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;

interface Row {
  name: string;
  args: string[];
  /** Runs on a fresh copy of the template directory (the command writes). */
  writes?: boolean;
  stdin?: string;
  /** Long-running: timed to this line on stdout. */
  ready?: RegExp;
  /** Exit codes that mean the command did what it was asked (default 0). */
  ok?: number[];
  /** Changes the fresh copy before the run (not timed). */
  prepare?(dir: string): void;
}

const web = await startTestWebProcess({ hosts: 2, pagesPerHost: 12, linksPerPage: 4, seed: 3, robots: true, sitemaps: true });
const root = mkdtempSync(join(tmpdir(), 'nutch-startup-bench-'));
const template = join(root, 'template');
mkdirSync(template);
try {
  // --- the tiny crawl directory every command runs on (not timed) ---
  const site = { 'http.agent.name': 'startup-bench', 'fetcher.server.delay': 0, 'fetcher.server.min.delay': 0 };
  writeFileSync(join(template, 'nutch-site.json'), JSON.stringify(site));
  mkdirSync(join(template, 'urls'));
  writeFileSync(join(template, 'urls', 'seed.txt'), web.seeds.join('\n') + '\n');
  mkdirSync(join(template, 'sitemaps'));
  writeFileSync(join(template, 'sitemaps', 'sitemaps.txt'), `${web.seeds[0]}sitemap.xml\n`);
  writeFileSync(join(template, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n');
  writeFileSync(join(template, 'check-urls.txt'), `${web.seeds[0]}page/1.html\n${web.seeds[0]}private/x.html\n`);
  mkdirSync(join(template, 'nutch-xml'));
  writeFileSync(join(template, 'nutch-xml', 'nutch-site.xml'), '<?xml version="1.0"?>\n<configuration>\n<property><name>http.agent.name</name><value>startup-bench</value></property>\n</configuration>\n');
  const page = join(template, 'page.html');
  writeFileSync(page, `<html><head><title>start-up</title></head><body>${Array.from({ length: 100 }, (_, i) => `<p>Paragraph ${i} with <a href="/l${i}.html">link ${i}</a> and some words to fill the page.</p>`).join('')}</body></html>`);
  const crawlDir = join(template, 'crawl');
  const segmentsDir = join(crawlDir, 'segments');
  const nutch = await createNutch({ cwd: template, crawlDir, logger: silentLogger, config: site });
  let fetched: string;
  let generated: string;
  let parsed: string;
  try {
    await nutch.crawl({ seeds: web.seeds, rounds: 1, index: true }).result;
    parsed = readdirSync(segmentsDir).sort()[0]!;
    await nutch.updatehostdb();
    const a = await nutch.generate({ topN: 2 });
    fetched = a.segments[0]!.split('/').pop()!;
    await nutch.fetch(a.segments[0]!);
    const b = await nutch.generate({ topN: 2 });
    generated = b.segments[0]!.split('/').pop()!;
  } finally {
    await nutch.close();
  }
  const seg = (name: string) => `crawl/segments/${name}`;
  const pageUrl = `${web.seeds[0]}page/1.html`;

  const rows: Row[] = [
    { name: '--help', args: ['--help'] },
    { name: '--version', args: ['--version'] },
    { name: 'inject', args: ['inject', 'crawl/crawldb', 'urls'], writes: true },
    { name: 'generate', args: ['generate', 'crawl/crawldb', 'crawl/segments', '-topN', '2'], writes: true },
    { name: 'fetch (2 pages)', args: ['fetch', seg(generated)], writes: true },
    { name: 'fetch -D fetcher.parse=true', args: ['fetch', '-D', 'fetcher.parse=true', seg(generated)], writes: true },
    { name: 'parse (2 pages)', args: ['parse', seg(fetched)], writes: true },
    { name: 'updatedb', args: ['updatedb', 'crawl/crawldb', seg(parsed)], writes: true },
    { name: 'invertlinks', args: ['invertlinks', 'crawl/linkdb', seg(parsed)], writes: true },
    { name: 'index', args: ['index', 'crawl/crawldb', '-linkdb', 'crawl/linkdb', seg(parsed)], writes: true },
    { name: 'dedup', args: ['dedup', 'crawl/crawldb'], writes: true },
    { name: 'clean', args: ['clean', 'crawl/crawldb'], writes: true },
    // without the generated segment, which the crawl would resume (and fetch) before generating
    { name: 'crawl (nothing to generate)', args: ['crawl', '-i', '-D', 'generate.min.score=1000', 'crawl', '1'], writes: true, ok: [0, 1], prepare: (dir) => rmSync(join(dir, seg(generated)), { recursive: true }) },
    { name: 'readdb -stats', args: ['readdb', 'crawl/crawldb', '-stats'] },
    { name: 'readdb -url', args: ['readdb', 'crawl/crawldb', '-url', web.seeds[0]!] },
    { name: 'readlinkdb -url', args: ['readlinkdb', 'crawl/linkdb', '-url', pageUrl] },
    { name: 'readseg -list', args: ['readseg', '-list', '-dir', 'crawl/segments'] },
    { name: 'readseg -dump', args: ['readseg', '-dump', seg(parsed), 'segdump'], writes: true },
    { name: 'mergedb', args: ['mergedb', 'merged-crawldb', 'crawl/crawldb'], writes: true },
    { name: 'mergesegs', args: ['mergesegs', 'merged-segments', seg(fetched)], writes: true },
    { name: 'mergelinkdb', args: ['mergelinkdb', 'merged-linkdb', 'crawl/linkdb'], writes: true },
    { name: 'freegen', args: ['freegen', 'urls', 'crawl/segments'], writes: true },
    { name: 'sitemap (1 sitemap)', args: ['sitemap', 'crawl/crawldb', '-sitemapUrls', 'sitemaps'], writes: true },
    { name: 'updatehostdb', args: ['updatehostdb', '-hostdb', 'crawl/hostdb', '-crawldb', 'crawl/crawldb'], writes: true },
    { name: 'readhostdb', args: ['readhostdb', 'crawl/hostdb', 'hostdump'], writes: true },
    { name: 'domainstats', args: ['domainstats', 'crawl/crawldb', 'domainstats-out', 'host'], writes: true },
    { name: 'protocolstats', args: ['protocolstats', 'crawl/crawldb', 'protocolstats-out'], writes: true },
    { name: 'crawlcomplete', args: ['crawlcomplete', '-inputDirs', 'crawl/crawldb', '-outputDir', 'complete-out', '-mode', 'host'], writes: true },
    { name: 'dump', args: ['dump', '-outputDir', 'dump-out', '-segment', seg(parsed)], writes: true },
    { name: 'warc', args: ['warc', 'warc-out', seg(parsed)], writes: true },
    { name: 'worker (2 pages)', args: ['worker', '-idleExit', '0', 'crawl/segments'], writes: true },
    { name: 'parsechecker file: 9 KB', args: ['parsechecker', pathToFileURL(page).href] },
    { name: 'parsechecker http', args: ['parsechecker', pageUrl] },
    { name: 'indexchecker http', args: ['indexchecker', pageUrl] },
    { name: 'filterchecker', args: ['filterchecker', pageUrl] },
    { name: 'normalizerchecker', args: ['normalizerchecker', pageUrl] },
    { name: 'robotsparser', args: ['robotsparser', 'robots.txt', 'check-urls.txt', 'startup-bench'] },
    { name: 'showproperties', args: ['showproperties'] },
    { name: 'plugin list', args: ['plugin', 'list'] },
    { name: 'convert-conf', args: ['convert-conf', 'nutch-xml', 'converted'], writes: true },
    { name: 'search (5 hits)', args: ['search', 'crawl', 'page', '-n', '5'] },
    { name: 'server (to listening)', args: ['server', '-port', '0', '-crawlDir', 'crawl'], ready: /listening on/ },
  ];
  const selected = ONLY ? rows.filter((r) => ONLY.some((o) => r.name.includes(o))) : rows;

  const before = loadavg();
  const node = { walls: [] as number[], cpus: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    const s = runOnce(['-e', '0'], template);
    node.walls.push(s.wall);
    node.cpus.push(s.cpu);
  }
  const nodeCpu = median(node.cpus);
  const results: { name: string; wall: number; cpu: number }[] = [];
  for (const row of selected) {
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let cwd = template;
      if (row.writes) {
        cwd = join(root, `run-${i}`);
        rmSync(cwd, { recursive: true, force: true });
        cpSync(template, cwd, { recursive: true });
        row.prepare?.(cwd);
      }
      const s = row.ready ? await runUntil([...PROFILE, bin, ...row.args], cwd, row.ready) : runOnce([...PROFILE, bin, ...row.args], cwd, row.stdin);
      if (!row.ready && !(row.ok ?? [0]).includes(s.code ?? -1)) throw new Error(`nutch ${row.args.join(' ')} exited ${s.code}: ${s.stderr.slice(-2000)}`);
      walls.push(s.wall);
      cpus.push(s.cpu);
    }
    results.push({ name: row.name, wall: median(walls), cpu: median(cpus) });
  }
  const after = loadavg();

  const fmt = (l: number[]) => l.map((x) => x.toFixed(1)).join(' ');
  console.log(`Node ${process.version}; median of ${RUNS} runs; load average ${fmt(before)} before, ${fmt(after)} after`);
  console.log(`${'command'.padEnd(30)} ${'wall s'.padStart(7)} ${'CPU s'.padStart(7)} ${'CPU vs node'.padStart(12)}  ≤ 0.35 s (CPU)`);
  console.log(`${'node -e 0'.padEnd(30)} ${median(node.walls).toFixed(3).padStart(7)} ${nodeCpu.toFixed(3).padStart(7)} ${'1.0×'.padStart(12)}`);
  for (const r of results) {
    const target = r.name.startsWith('search') ? 0.4 : 0.35;
    const meets = r.name === '--help' ? (r.cpu <= 2 * nodeCpu ? 'yes (≤ 2× node)' : 'NO (> 2× node)') : r.cpu <= target ? 'yes' : 'NO';
    console.log(`${`nutch ${r.name}`.padEnd(30)} ${r.wall.toFixed(3).padStart(7)} ${r.cpu.toFixed(3).padStart(7)} ${`${(r.cpu / nodeCpu).toFixed(1)}×`.padStart(12)}  ${meets}`);
  }
  console.log('targets: --help ≤ 2× node -e 0; every command ≤ 0.35 s; search ≤ 0.4 s end to end');
} finally {
  await web.close();
  if (process.env.BENCH_STARTUP_KEEP) console.log(`kept ${template} (BENCH_STARTUP_KEEP)`);
  else rmSync(root, { recursive: true, force: true });
}

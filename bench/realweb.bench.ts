/**
 * Real-site bench (issue 16): nutch-ts `crawl -i` against wget -r and HTTrack on real documentation
 * trees from Debian doc packages (bench/realweb/sites.ts), each served by nginx as its own loopback
 * host with a robots.txt written here. One run of each crawler on the same served sites; everything
 * is measured from nginx's access log (pages, robots violations, requests and connections in flight
 * per host) and GNU time (wall, CPU, peak RSS). Then the judged queries (bench/realweb/queries.json)
 * are searched in nutch-ts's index: hit@1, hit@10, MRR.
 *
 * `npm run bench:realweb` installs what is missing first (as root; bench/realweb/setup.ts); under
 * `npm run bench` a machine without the packages skips this bench, saying what is missing.
 * Env: BENCH_REALWEB_PORT (18480), BENCH_REALWEB_CRAWLERS (wget,httrack,nutch), BENCH_PER_QUEUE (2
 * connections per host for nutch-ts), BENCH_HTTRACK_CONNECTIONS (8), BENCH_KEEP=1 (keep the work dir),
 * BENCH_DEFINES (more `-D k=v` for nutch-ts), BENCH_NODE_ARGS (node flags for the nutch-ts process, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`: one profile per thread, parse workers included).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SITES, siteAddress } from './realweb/sites.js';
import { missing, sitePackage } from './realweb/setup.js';
import { startNginx, type ServedSite } from './realweb/nginx.js';
import { readAccessLog, traffic, type CrawlerTraffic } from './realweb/access-log.js';
import { judge } from './realweb/judge.js';
import { formatTimeline, roundFetches, stageSpans } from './realweb/round-timeline.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const port = Number(process.env.BENCH_REALWEB_PORT ?? 18480);
const perQueue = Number(process.env.BENCH_PER_QUEUE ?? 2);
const httrackConnections = Number(process.env.BENCH_HTTRACK_CONNECTIONS ?? 8);
const crawlers = (process.env.BENCH_REALWEB_CRAWLERS ?? 'wget,httrack,nutch').split(',');

const lacking = missing();
if (lacking.length) {
  console.log(`real-web bench skipped: missing ${lacking.map((w) => (Array.isArray(w) ? w.join(' | ') : w)).join(', ')}`);
  console.log('run `npm run bench:realweb` as root to install them (bench/realweb/setup.ts), or apt-get install them yourself');
  process.exit(0);
}

if (process.env.BENCH_NO_BUILD !== '1') {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
}

const sites: ServedSite[] = SITES.map((s, i) => {
  const pkg = sitePackage(s)!;
  const ip = siteAddress(i);
  const base = `http://${ip}:${port}`;
  return { key: s.key, generator: s.generator, pkg, root: s.root(pkg), ip, base, startUrl: base + s.start, robots: s.robots };
});
const dir = mkdtempSync(join(tmpdir(), 'nutch-realweb-'));
const nginx = await startNginx(join(dir, 'nginx'), sites, port);
const robotsByIp = new Map(sites.map((s) => [s.ip, s.robots]));
console.log(`load: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
console.log(`sites (nginx on port ${port}):`);
for (const s of sites) console.log(`  ${s.base}  ${s.key} — ${s.pkg} (${s.generator}), robots.txt: ${s.robots.map((r) => r.replace('Disallow: ', '-')).join(' ')}`);

interface Result { name: string; wall: number; cpu: number; rssMb: number; exit: number | null; traffic: CrawlerTraffic; note: string }
const results: Result[] = [];

const AGENTS = { wget: 'wget-realweb', httrack: 'httrack-realweb', nutch: 'nutch-realweb' } as const;

async function measure(name: keyof typeof AGENTS, cmd: string, args: string[], cwd: string, note: string): Promise<Result> {
  const timeFile = join(dir, `${name}.time`);
  console.log(`${name}: starting at load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  const run = await runChild('/usr/bin/time', ['-o', timeFile, '-f', '%e %U %S %M', cmd, ...args], cwd);
  const [wall, user, sys, rssKb] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number) as [number, number, number, number];
  const records = readAccessLog(nginx.accessLog).filter((r) => r.ua.includes(AGENTS[name]));
  const r: Result = { name, wall, cpu: user + sys, rssMb: rssKb / 1024, exit: run.code, traffic: traffic(records, robotsByIp), note };
  if (name === 'nutch') {
    writeFileSync(join(dir, 'nutch.out'), run.stdout + run.stderr);
    const summary = run.stdout.slice(run.stdout.indexOf('Crawl '));
    console.log(`nutch-ts crawl summary:\n${summary.split('\n').map((l) => '  ' + l).join('\n')}`);
    if (run.code !== 0) console.log(`nutch exited ${run.code}: ${run.stderr.slice(-2000)}`);
    const spans = stageSpans(run.stdout + '\n' + run.stderr);
    const hostName = (ip: string) => sites.find((s) => s.ip === ip)?.key ?? ip;
    console.log(`nutch-ts wall s per round and stage; fetch requests per host and the fetch's tail with one host left:\n${formatTimeline(spans, roundFetches(spans, records), hostName)}`);
  }
  results.push(r);
  return r;
}

for (const c of crawlers) {
  if (c === 'wget') {
    await measure('wget', 'wget', ['-r', '-l', 'inf', '-nv', '-e', 'robots=on', '-U', AGENTS.wget, '-P', join(dir, 'wget'), ...sites.map((s) => s.startUrl)], dir, 'wget -r, 1 connection');
  } else if (c === 'httrack') {
    await measure('httrack', 'httrack', [...sites.map((s) => s.startUrl), '-O', join(dir, 'httrack'), `-c${httrackConnections}`, '-s2', '-r9999', '-F', AGENTS.httrack, '-q', '-%v0',
      // HTTrack's default bandwidth limit holds it to about one request a second on loopback
      '--max-rate=0', '--connection-per-second=0', '--disable-security-limits'], dir, `HTTrack, ${httrackConnections} connections, robots always`);
  } else if (c === 'nutch') {
    writeFileSync(join(dir, 'seeds.txt'), sites.map((s) => s.startUrl).join('\n') + '\n');
    await measure('nutch', process.execPath, [...(process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean), join(root, 'dist', 'sdk', 'cli', 'main.js'), 'crawl', '-i', '-s', 'seeds.txt',
      '--num-threads', String(sites.length * perQueue),
      '-D', `http.agent.name=${AGENTS.nutch}`,
      '-D', `fetcher.threads.per.queue=${perQueue}`,
      '-D', 'fetcher.server.delay=0', '-D', 'fetcher.server.min.delay=0',
      '-D', 'db.max.outlinks.per.page=-1', '-D', 'http.content.limit=-1', '-D', 'db.ignore.external.links=true',
      ...(process.env.BENCH_DEFINES ?? '').split(/\s+/).filter(Boolean).flatMap((d) => ['-D', d]),
      'crawl', '-1'], dir, `crawl -i (every stage + index), ${perQueue} connections per host`);
  }
}
await nginx.stop();

const reference = results.find((r) => r.name === 'wget')?.traffic.pages;
const rows = results.map((r) => {
  const p = r.traffic.pages.size;
  const lack = reference ? [...reference].filter((u) => !r.traffic.pages.has(u)) : [];
  const extra = reference ? [...r.traffic.pages].filter((u) => !reference.has(u)) : [];
  return { r, p, lack, extra };
});
console.log('\n| crawler | wall s | CPU s | CPU s / 1,000 pages | peak RSS MB | pages | pages/s | vs wget: missing / extra | requests | robots violations | in flight / host (bounds at 1 ms) | connections / host |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const { r, p, lack, extra } of rows) {
  console.log(`| ${r.name} (${r.note}) | ${r.wall.toFixed(1)} | ${r.cpu.toFixed(1)} | ${(r.cpu / (p / 1000)).toFixed(2)} | ${r.rssMb.toFixed(0)} | ${p} | ${(p / r.wall).toFixed(0)} | ${reference ? `${lack.length} / ${extra.length}` : '-'} | ${r.traffic.requests} | ${r.traffic.violations.length} | ${r.traffic.maxInFlightPerHost.join('–')} | ${r.traffic.maxConnectionsPerHost} |`);
  if (r.exit !== 0) console.log(`  (${r.name} exited ${r.exit})`);
  if (r.traffic.violations.length) console.log(`  ${r.name} robots violations, e.g. ${r.traffic.violations.slice(0, 3).join(' ')}`);
  if (lack.length && r.name !== 'wget') console.log(`  ${r.name} lacks wget's pages, e.g. ${lack.slice(0, 5).join(' ')}`);
}

const ours = results.find((r) => r.name === 'nutch');
if (ours) {
  const p = ours.traffic.pages.size;
  const w = results.find((r) => r.name === 'wget');
  const h = results.find((r) => r.name === 'httrack');
  console.log('\ntargets (issue 16):');
  if (h) console.log(`  pages/s vs HTTrack: ${((p / ours.wall) / (h.traffic.pages.size / h.wall)).toFixed(2)}x (target >= 2x)`);
  if (w) console.log(`  wall vs wget: ${(ours.wall / w.wall).toFixed(2)}x (target <= 2x); wget's pages missing: ${rows.find((x) => x.r === ours)!.lack.length} (target 0)`);
  console.log(`  CPU ${(ours.cpu / (p / 1000)).toFixed(2)} s per 1,000 pages (target <= 4), peak RSS ${ours.rssMb.toFixed(0)} MB (target <= 300), robots violations ${ours.traffic.violations.length} (target 0)`);
  const queries = join(root, 'bench', 'realweb', 'queries.json');
  if (ours.exit === 0 && existsSync(queries)) {
    const j = await judge(join(dir, 'crawl'), JSON.parse(readFileSync(queries, 'utf8')), sites);
    console.log(`\nsearch, ${j.n} judged queries (bench/realweb/queries.json): hit@1 ${j.hit1.toFixed(2)} (target >= 0.85), hit@10 ${j.hit10.toFixed(2)}, MRR ${j.mrr.toFixed(2)} (target >= 0.9); search ${j.ms.p50.toFixed(1)} ms p50, ${j.ms.max.toFixed(1)} ms max`);
    for (const m of j.misses) console.log(`  ${m}`);
  }
}
console.log(`load: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
if (process.env.BENCH_KEEP === '1') console.log(`work dir kept: ${dir}`);
else rmSync(dir, { recursive: true, force: true });

function runChild(cmd: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-200_000)));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

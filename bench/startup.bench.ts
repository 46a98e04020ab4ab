/**
 * Start-up of the built `nutch` binary (dist/, run `npm run build` first) against `node -e 0`, and
 * `nutch search` end to end on a small crawl: issue 17's targets are --help at most 2× node's own start
 * and ≤ 0.35 s per command, search ≤ 0.4 s; parsechecker of a 9 KB page (with its parse worker) for
 * reference. Reports the median wall time and CPU time (user + system, which a loaded machine distorts
 * far less than wall time) of 7 runs each, with the load average.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createNutch } from '../sdk/create-nutch.js';
import { silentLogger } from '../core/log.js';
import { startTestWeb } from '../tests/web/test-web.js';

const bin = resolve('dist/sdk/cli/main.js');
if (!existsSync(bin)) {
  console.error('startup bench: dist/sdk/cli/main.js is missing; run `npm run build` first');
  process.exit(1);
}

/** Median wall and CPU seconds of a command (CPU: the child's user + system time, from GNU time). */
function measure(args: string[], cwd: string, runs = 7): { wall: number; cpu: number } {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NUTCH_CONF_DIR: cwd } });
    walls.push((performance.now() - started) / 1000);
    const [user, sys] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
    cpus.push(user! + sys!);
  }
  const median = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  return { wall: median(walls), cpu: median(cpus) };
}

const dir = mkdtempSync(join(tmpdir(), 'nutch-startup-bench-'));
const web = await startTestWeb({ hosts: 2, pagesPerHost: 20, linksPerPage: 4, seed: 3 });
try {
  writeFileSync(join(dir, 'nutch-site.json'), JSON.stringify({ 'http.agent.name': 'startup-bench', 'fetcher.server.delay': 0.01 }));
  const nutch = await createNutch({ cwd: dir, logger: silentLogger, config: { 'http.agent.name': 'startup-bench', 'fetcher.server.delay': 0.01 } });
  try {
    await nutch.crawl({ seeds: web.seeds, rounds: 2, index: true }).result;
  } finally {
    await nutch.close();
  }
  // parsechecker of a 9 KB page from a file: URL (the bench's own test web cannot answer while
  // spawnSync blocks this process); it starts a parse worker thread, as a crawl does
  const page = join(dir, 'page.html');
  writeFileSync(page, `<html><head><title>start-up</title></head><body>${Array.from({ length: 100 }, (_, i) => `<p>Paragraph ${i} with <a href="/l${i}.html">link ${i}</a> and some words to fill the page.</p>`).join('')}</body></html>`);
  const node = measure(['-e', '0'], dir);
  const rows: [string, string[]][] = [
    ['nutch --help', [bin, '--help']],
    ['nutch --version', [bin, '--version']],
    ['nutch showproperties', [bin, 'showproperties']],
    ['nutch readdb -stats', [bin, 'readdb', 'crawl/crawldb', '-stats']],
    ['nutch search', [bin, 'search', 'crawl', 'page 3', '-n', '5']],
    ['nutch parsechecker', [bin, 'parsechecker', pathToFileURL(page).href]],
  ];
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`${'command'.padEnd(22)} ${'wall s'.padStart(7)} ${'CPU s'.padStart(7)} ${'CPU vs node'.padStart(12)}`);
  console.log(`${'node -e 0'.padEnd(22)} ${node.wall.toFixed(3).padStart(7)} ${node.cpu.toFixed(3).padStart(7)} ${'1.0×'.padStart(12)}`);
  for (const [name, args] of rows) {
    const m = measure(args, dir);
    console.log(`${name.padEnd(22)} ${m.wall.toFixed(3).padStart(7)} ${m.cpu.toFixed(3).padStart(7)} ${`${(m.cpu / node.cpu).toFixed(1)}×`.padStart(12)}`);
  }
  console.log('targets: --help ≤ 2× node -e 0; every command ≤ 0.35 s; search ≤ 0.4 s end to end');
} finally {
  await web.close();
  rmSync(dir, { recursive: true, force: true });
}

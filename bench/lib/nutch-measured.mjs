// The built `nutch` CLI (dist/sdk/cli/main.js), run in this process, which reports its own resource
// usage on stderr as it exits: peak RSS (every thread included) and the CPU time of all its threads.
// bench/crawl.bench.ts runs `nutch crawl` through it:
//   node bench/lib/nutch-measured.mjs crawl -i -s seeds crawl -1
//
// Peak RSS is Linux's VmHWM (/proc/self/status), the high-water mark of this process's own memory since
// it started. getrusage's ru_maxrss is not: Linux carries the parent's RSS at fork into the child's
// ru_maxrss, so a bench that had built a 512 MB buffer before spawning the crawler read 600 MB for a
// crawler that never passed 240 MB. ru_maxrss stays the figure where /proc is missing (not Linux).
import { readFileSync } from 'node:fs';

function peakRssKb() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => {
  const r = process.resourceUsage();
  process.stderr.write(`\nRESOURCE-USAGE ${JSON.stringify({ maxRssKb: peakRssKb(), cpuUs: r.userCPUTime + r.systemCPUTime })}\n`);
});
await import(new URL('../../dist/sdk/cli/main.js', import.meta.url).href);

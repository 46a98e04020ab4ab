// The built `nutch` CLI (dist/sdk/cli/main.js), run in this process, which reports its own resource
// usage on stderr as it exits: peak RSS (getrusage's ru_maxrss, every thread included) and the CPU time
// of all its threads. bench/crawl.bench.ts runs `nutch crawl` through it:
//   node bench/lib/nutch-measured.mjs crawl -i -s seeds crawl -1
process.on('exit', () => {
  const r = process.resourceUsage();
  process.stderr.write(`\nRESOURCE-USAGE ${JSON.stringify({ maxRssKb: r.maxRSS, cpuUs: r.userCPUTime + r.systemCPUTime })}\n`);
});
await import(new URL('../../dist/sdk/cli/main.js', import.meta.url).href);

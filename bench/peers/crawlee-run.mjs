// Crawlee 3 CheerioCrawler over the same test web and settings as bench/crawl.bench.ts:
// follows every same-host and cross-host link, stores title and text in memory, reports pages/s.
//   node crawlee-run.mjs <maxConcurrency> <seed> [<seed> ...]
import { CheerioCrawler, Configuration } from '@crawlee/cheerio';

const [concurrency, ...seeds] = process.argv.slice(2);
const config = new Configuration({ persistStorage: false, purgeOnStart: true });
let pages = 0;
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
const started = performance.now();
const cpu0 = process.cpuUsage();
const crawler = new CheerioCrawler({
  maxConcurrency: Number(concurrency),
  maxRequestRetries: 0,
  async requestHandler({ $, enqueueLinks }) {
    pages++;
    $('title').text();
    $('body').text();
    await enqueueLinks({ strategy: 'all' });
  },
}, config);
await crawler.run(seeds);
clearInterval(sampler);
const secs = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ pages, secs, pagesPerSec: pages / secs, cpuPer1000: ((cpu.user + cpu.system) / 1e6) / (pages / 1000), peakRssMb: peakRss / 1048576 }));

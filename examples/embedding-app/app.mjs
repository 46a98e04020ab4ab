// Embeds nutch-ts: crawl the seed URLs given on the command line, then search the embedded index.
//   node app.mjs <query> <seed-url> [<seed-url> ...]
// Configuration comes from ./conf/nutch-site.json (plugin.includes activates nutch-index-readingtime).
import { createNutch } from 'nutch-ts';

const [query, ...seeds] = process.argv.slice(2);
if (!query || seeds.length === 0) {
  console.error('usage: node app.mjs <query> <seed-url> [<seed-url> ...]');
  process.exit(2);
}

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());

const nutch = await createNutch({ crawlDir: 'crawl', signal: controller.signal });
try {
  for await (const event of nutch.crawl({ seeds, rounds: Number(process.env.ROUNDS ?? 2), topN: 1000 })) {
    if (event.type === 'stage-end') console.log(`${event.stage}${event.round ? ` #${event.round}` : ''}: ${JSON.stringify(event.counters)}`);
  }
  const hits = await nutch.search(query, { limit: 5 });
  for (const hit of hits) console.log(`HIT ${hit.score.toFixed(3)} ${hit.url} ${hit.title}`);
  if (hits.length === 0) process.exitCode = 1;
} finally {
  await nutch.close();
}

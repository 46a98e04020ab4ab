/**
 * Kill -9 anywhere, the long variant (issue 18): BENCH_TRIALS (50) seeded trials of
 * tests/crawl/kill9-harness.ts — a real `nutch crawl -i` over the local test web SIGKILLed after a
 * random delay in [0, BENCH_MAX_DELAY_MS) (20000: about one uninterrupted crawl on a loaded 2-core machine), every store opened and read, the crawl re-run, then:
 * every seed db_fetched, stored once in crawl_fetch and parse_data, no page stored before the kill
 * fetched twice, the index searchable. Seeds are BENCH_SEED (1) .. BENCH_SEED + trials - 1; a failing
 * seed is printed and replays with `KILL9_SEED=<seed> node tests/run-tests.mjs tests/crawl/kill9`.
 * BENCH_STORAGE=postgres runs them on PostgreSQL (replay: NUTCH_TEST_STORAGE=postgres KILL9_SEED=<seed> …).
 */
import { loadavg } from 'node:os';
import { killTrial } from '../tests/crawl/kill9-harness.js';
import { startPostgres } from '../tests/helpers/postgres-server.js';

// BENCH_STORAGE=postgres: the same trials with every store on a throwaway PostgreSQL cluster
// (the harness passes its URL to each CLI run as tests/helpers/test-storage.ts does for the tests)
const storage = process.env.BENCH_STORAGE === 'postgres' ? 'postgres' : 'sqlite';
const server = storage === 'postgres' ? await startPostgres() : null;
if (storage === 'postgres') {
  if (!server) throw new Error('BENCH_STORAGE=postgres: PostgreSQL (initdb) is not installed');
  process.env.NUTCH_TEST_STORAGE = 'postgres';
  process.env.NUTCH_TEST_STORAGE_URL = server.url;
}

const trials = Number(process.env.BENCH_TRIALS ?? 50);
const first = Number(process.env.BENCH_SEED ?? 1);
const maxDelay = Number(process.env.BENCH_MAX_DELAY_MS ?? 20000);
console.log(`kill -9 harness on ${storage}: ${trials} trials, seeds ${first}..${first + trials - 1}, kill within ${maxDelay} ms; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
let failed = 0;
let finishedFirst = 0;
for (let seed = first; seed < first + trials; seed++) {
  try {
    const r = await killTrial(seed, maxDelay);
    if (r.finishedBeforeKill) finishedFirst++;
    console.log(`seed ${seed}: ok (killed after ${r.killAfterMs} ms${r.finishedBeforeKill ? ', crawl already done' : `, ${r.storedBeforeKill} pages stored before`})`);
  } catch (err) {
    failed++;
    console.log(`seed ${seed}: FAILED ${(err as Error).message.split('\n').slice(0, 6).join('\n  ')}`);
  }
}
console.log(`${trials - failed}/${trials} trials passed (${finishedFirst} killed after the crawl had ended); load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
await server?.stop();
process.exit(failed ? 1 : 0);

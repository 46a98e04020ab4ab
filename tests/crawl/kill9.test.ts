/**
 * Kill -9 anywhere, the short CI variant: two seeded trials of tests/crawl/kill9-harness.ts (a real
 * `nutch crawl -i` SIGKILLed after a random delay, stores checked, crawl re-run and checked). The long
 * variant (50+ trials) is bench/kill9.bench.ts. KILL9_SEED=<n> replays one trial. The kill at each exact
 * stage boundary, whatever the machine's speed, is tests/crawl/crawl-kill-points.test.ts.
 */
import { test } from 'node:test';
import { killTrial } from './kill9-harness.js';

const seeds = process.env.KILL9_SEED ? [Number(process.env.KILL9_SEED)] : [1801, 1802];

for (const seed of seeds) {
  test(`kill -9 of nutch crawl at a seeded point (seed ${seed}): stores open, the re-run completes, nothing lost or stored twice`, async (t) => {
    const r = await killTrial(seed, 6000);
    t.diagnostic(`killed after ${r.killAfterMs} ms${r.finishedBeforeKill ? ' (the crawl had already finished)' : ''}; ${r.storedBeforeKill} pages stored before the kill`);
  });
}

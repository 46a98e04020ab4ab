/**
 * Kill -9 anywhere, the short CI variant: two seeded trials of tests/crawl/kill9-harness.ts (a real
 * `nutch crawl -i` SIGKILLed after a random delay, stores checked, crawl re-run and checked). The long
 * variant (50+ trials) is bench/kill9.bench.ts. KILL9_SEED=<n> replays one trial.
 */
import { test } from 'node:test';
import { killTrial } from './kill9-harness.js';

const seeds = process.env.KILL9_SEED ? [Number(process.env.KILL9_SEED)] : [1801, 1802];

// A known gap this harness found (issue 18): a crawl killed after its last updatedb but before index is,
// when re-run, left without an index (generate finds nothing due, so the loop ends before indexing that
// segment). Whether a seed's kill lands there depends on the machine's speed, so the trials run as `todo`:
// they still run and report, and turn into plain tests when the crawl loop indexes an unindexed segment.
const KNOWN_GAP = 'a crawl killed between updatedb and index is not indexed on re-run (issue 18)';

for (const seed of seeds) {
  test(`kill -9 of nutch crawl at a seeded point (seed ${seed}): stores open, the re-run completes, nothing lost or stored twice`, { todo: KNOWN_GAP }, async (t) => {
    const r = await killTrial(seed, 6000);
    t.diagnostic(`killed after ${r.killAfterMs} ms${r.finishedBeforeKill ? ' (the crawl had already finished)' : ''}; ${r.storedBeforeKill} pages stored before the kill`);
  });
}

/**
 * Kill -9 of every stage, the short CI variant (issue 18), on the test run's engine (the embedded one by
 * default): one chain of tests/crawl/kill9-stages-harness.ts — inject, generate, fetch, parse, updatedb,
 * invertlinks, dedup, index, clean and a `nutch crawl -i` round, each a real child process SIGKILLed at a
 * seeded point of the command's own uninterrupted duration, its stores checked old-or-new, run again and
 * compared with an uninterrupted run's. kill9-stages-postgres.test.ts runs the same chain on a throwaway
 * PostgreSQL cluster (its own file, so the two run side by side in separate processes).
 * KILL9_SEED=<n> replays a chain, KILL9_VERBOSE=1 logs each step; the long variant is bench/kill9.bench.ts.
 */
import { test } from 'node:test';
import { testStorageUrl } from '../helpers/test-storage.js';
import { KILL9_TEST_SEED, stageChainTest } from './kill9-stages-test-chain.js';

test(`kill -9 of each stage at a point within its own duration (seed ${KILL9_TEST_SEED}): stores old or new, the re-run completes, the crawl equals an uninterrupted one`, { timeout: 900_000 }, async (t) => {
  await stageChainTest(t, (cwd) => testStorageUrl(cwd));
});

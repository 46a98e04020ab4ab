/**
 * The chain kill9-stages.test.ts and kill9-stages-postgres.test.ts run: a small test web (3 hosts × 6
 * pages), the windows from the reference run in the test's own process (warm: no start-up, plugins
 * already imported, so shorter than the child's — kills land early in each command; the bench measures
 * them with child processes), each trial reported as a diagnostic.
 */
import type { TestContext } from 'node:test';
import { startTestWeb } from '../web/test-web.js';
import { chainWebOptions, runKillChain, type ChainOptions } from './kill9-stages-harness.js';

export const KILL9_TEST_SEED = Number(process.env.KILL9_SEED ?? 1818);

export async function stageChainTest(t: TestContext, storageUrl: (cwd: string) => string, server?: Pick<ChainOptions, 'diagnose' | 'afterKill' | 'afterInProcess'>): Promise<void> {
  const seed = KILL9_TEST_SEED;
  const web = await startTestWeb(chainWebOptions(3, 6, seed));
  t.after(() => web.close());
  const log = process.env.KILL9_VERBOSE ? (l: string) => void process.stderr.write(`kill9 ${l}\n`) : undefined;
  // the default set without the regex URL filter and normaliser and Tika, which the test web does not
  // need: each of the 20 child processes starts faster
  const conf = { 'plugin.includes': 'protocol-http|urlfilter-validator|parse-html|index-(basic|anchor)|indexer-sqlite|scoring-opic|urlnormalizer-(pass|basic)' };
  const trials = await runKillChain({ web, seed, storageUrl, conf, reference: 'in-process', ...(log ? { log } : {}), ...server });
  for (const r of trials) t.diagnostic(`${r.stage}: killed ${r.killAfterMs} of ${r.windowMs} ms, left ${r.left}${r.storedBeforeKill !== undefined ? ` (${r.storedBeforeKill} stored)` : ''}${r.reran ? '' : ', not run again'}`);
}

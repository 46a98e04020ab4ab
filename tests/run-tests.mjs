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
// NUTCH_TEST_STORAGE=postgres: the stage tests run on PostgreSQL — one throwaway cluster for the run
// (tests/helpers/postgres-server.ts), each test context in a schema of its own (tests/helpers/test-storage.ts).
let pgServer = null;
const env = { ...process.env };
if (env.NUTCH_TEST_STORAGE === 'postgres' && !env.NUTCH_TEST_STORAGE_URL) {
  const { register } = await import('tsx/esm/api');
  register();
  const { startPostgres } = await import('./helpers/postgres-server.ts');
  pgServer = await startPostgres();
  if (!pgServer) {
    console.error('run-tests: NUTCH_TEST_STORAGE=postgres but PostgreSQL (initdb, postgres) is not installed');
    process.exit(1);
  }
  env.NUTCH_TEST_STORAGE_URL = pgServer.url;
  console.error(`run-tests: storage on PostgreSQL ${pgServer.url} (PID ${pgServer.pid})`);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { cwd: root, stdio: 'inherit', env },
);
await pgServer?.stop();
process.exit(result.status ?? 1);

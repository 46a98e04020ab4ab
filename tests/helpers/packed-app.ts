/**
 * The shared "installed from npm" fixture, built ONCE per source state: `npm run build`, `npm pack` of
 * nutch-ts and of the third-party fixture plugin, both installed into a temporary app with one
 * `npm install --prefer-offline --ignore-scripts`, then the project's compiled better-sqlite3 copied in
 * (pinned exactly, so the native module is never rebuilt). Cached in os.tmpdir() under a hash of the
 * sources; concurrent test processes wait on a lock directory instead of building twice.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixturesDir, projectRoot, writeFile } from './temp-dir.js';

export interface PackedApp {
  /** The app folder: package.json, conf/nutch-site.json, local-plugins/, node_modules/. */
  appDir: string;
  /** node_modules/.bin/nutch of the app. */
  nutchBin: string;
  /** The installed nutch-ts package root. */
  nutchRoot: string;
  pluginPackage: string;
  /** examples/embedding-app set up inside the app (its dependencies resolve from the app's node_modules). */
  exampleAppDir: string;
  /** examples/index-readingtime with its tests, inside the app (nutch-ts resolves from the app's node_modules). */
  examplePluginDir: string;
}

export const thirdPartyPlugin = join(fixturesDir, 'third-party', 'nutch-urlfilter-example');
export const examplePlugin = join(projectRoot, 'examples', 'index-readingtime');
const exampleApp = join(projectRoot, 'examples', 'embedding-app');
const HASHED = ['package.json', 'package-lock.json', 'tsup.config.ts', 'tsconfig.json', 'core', 'sdk', 'plugins', 'conf', 'tests/helpers/packed-app.ts', relative(projectRoot, thirdPartyPlugin), 'examples'];

function sourceHash(): string {
  const h = createHash('sha256');
  const walk = (abs: string) => {
    if (!existsSync(abs)) return;
    const st = statSync(abs);
    if (st.isDirectory()) {
      // Test files do not reach the package, so editing one does not force a rebuild.
      for (const name of readdirSync(abs).sort()) if (name !== 'node_modules' && !name.startsWith('.') && !name.endsWith('.test.ts')) walk(join(abs, name));
    } else {
      h.update(relative(projectRoot, abs)).update('\0').update(readFileSync(abs)).update('\0');
    }
  };
  for (const p of HASHED) walk(join(projectRoot, p));
  return h.digest('hex').slice(0, 16);
}

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed with ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function layout(appDir: string): PackedApp {
  const nutchRoot = join(appDir, 'node_modules', 'nutch-ts');
  return { appDir, nutchBin: join(appDir, 'node_modules', '.bin', 'nutch'), nutchRoot, pluginPackage: join(appDir, 'node_modules', 'nutch-urlfilter-example'), exampleAppDir: join(appDir, 'example-app'), examplePluginDir: join(appDir, 'example-plugin') };
}

function build(target: string): void {
  const work = mkdtempSync(`${target}.work-`);
  try {
    buildInto(work);
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
  try {
    renameSync(work, target);
  } catch {
    rmSync(work, { recursive: true, force: true }); // another process finished first
  }
  removeStaleBuilds(target);
}

/** Earlier source states' apps (older than ten minutes), so os.tmpdir() does not fill up run after run. */
function removeStaleBuilds(keep: string): void {
  for (const name of readdirSync(tmpdir())) {
    const p = join(tmpdir(), name);
    if (!name.startsWith('nutch-ts-packed-') || p === keep || p === `${keep}.lock`) continue;
    const st = statSync(p, { throwIfNoEntry: false });
    if (st && Date.now() - st.mtimeMs > 600_000) rmSync(p, { recursive: true, force: true });
  }
}

function buildInto(work: string): void {
  run('npm', ['run', 'build'], projectRoot);
  const nutchTgz = join(work, run('npm', ['pack', '--pack-destination', work], projectRoot).trim().split('\n').pop()!);
  const pluginTgz = join(work, run('npm', ['pack', '--pack-destination', work], thirdPartyPlugin).trim().split('\n').pop()!);
  const exampleTgz = join(work, run('npm', ['pack', '--pack-destination', work], examplePlugin).trim().split('\n').pop()!);
  const app = join(work, 'app');
  writeFile(join(app, 'package.json'), { name: 'e2e-app', version: '1.0.0', private: true, type: 'module' });
  run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', nutchTgz, pluginTgz, exampleTgz], app);
  // The example plugin's sources with its tests, as its author has them: `nutch-ts` (a devDependency)
  // resolves from the app's node_modules.
  cpSync(examplePlugin, join(app, 'example-plugin'), { recursive: true, filter: (src) => !src.includes('node_modules') });
  // The embedding example: its own package.json and nutch-site.json; node_modules resolve from the app's.
  cpSync(exampleApp, join(app, 'example-app'), { recursive: true, filter: (src) => !src.includes('node_modules') && !src.endsWith('/crawl') });
  const sqliteBuild = join(projectRoot, 'node_modules', 'better-sqlite3', 'build');
  const appSqlite = join(app, 'node_modules', 'better-sqlite3');
  if (existsSync(sqliteBuild) && existsSync(appSqlite)) cpSync(sqliteBuild, join(appSqlite, 'build'), { recursive: true });
  // The app's own configuration and a local plugin folder, as an operator would set them up.
  writeFile(join(app, 'conf', 'nutch-site.json'), {
    'http.agent.name': 'e2e-bot',
    'plugin.includes': 'urlnormalizer-pass|nutch-urlfilter-example|app-local-filter',
    'plugin.folders': ['local-plugins'],
    'urlfilter.order': ['nutch-urlfilter-example', 'app-local-filter'],
    'urlfilter.example.deny': ['denied.example'],
  });
  writeFile(join(app, 'local-plugins', 'app-local-filter', 'plugin.json'), {
    id: 'app-local-filter', version: '0.0.1', main: 'index.js',
    extensions: [{ id: 'noquery', point: 'URLFilter', implementation: 'NoQueryURLFilter' }],
  });
  writeFile(join(app, 'local-plugins', 'app-local-filter', 'index.js'), "export class NoQueryURLFilter { filter(url) { return url.includes('?') ? null : url; } }\n");
  writeFileSync(join(work, '.complete'), new Date().toISOString());
}

let cached: Promise<PackedApp> | undefined;

export function packedApp(): Promise<PackedApp> {
  cached ??= (async () => {
    const target = join(tmpdir(), `nutch-ts-packed-${sourceHash()}`);
    const lock = `${target}.lock`;
    const deadline = Date.now() + 180_000;
    while (!existsSync(join(target, '.complete'))) {
      try {
        mkdirSync(lock);
      } catch {
        const held = statSync(lock, { throwIfNoEntry: false });
        if (held && Date.now() - held.mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true }); // a crashed builder
        if (Date.now() > deadline) throw new Error(`packed-app: timed out waiting for ${lock}`);
        await sleep(250);
        continue;
      }
      try {
        if (!existsSync(join(target, '.complete'))) build(target);
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    }
    return layout(join(target, 'app'));
  })();
  return cached;
}

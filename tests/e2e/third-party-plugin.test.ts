/**
 * ACCEPTANCE (issue 2): a third-party plugin packed with `npm pack` and installed into an app's
 * node_modules is discovered, activated by plugin.includes, ordered by urlfilter.order from the app's
 * conf/nutch-site.json, imported only on first use; `nutch plugin list` in that app shows it with its
 * reason and the effective chains, and `nutch filterchecker` uses it.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { packedApp, type PackedApp } from '../helpers/packed-app.js';
import { spawnNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

let app: PackedApp;

before(async () => {
  app = await packedApp();
});

const markerLines = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').filter(Boolean) : []);

test('the packed packages are installed as an npm user would have them', () => {
  const pkg = JSON.parse(readFileSync(join(app.pluginPackage, 'package.json'), 'utf8'));
  assert.ok(pkg.keywords.includes('nutch-plugin'));
  assert.equal(pkg.peerDependencies['nutch-ts'], '>=0.1.0 <1.0.0');
  assert.ok(existsSync(join(app.nutchRoot, 'dist', 'sdk', 'index.js')));
  assert.ok(existsSync(join(app.nutchRoot, 'dist', 'plugins', 'urlnormalizer-pass', 'plugin.json')), 'built-ins ship in dist/plugins');
  assert.ok(!existsSync(join(app.nutchRoot, 'core', 'plugin', 'plugin-repository.ts')), 'runs from dist: no TypeScript sources shipped');
  assert.ok(existsSync(join(app.nutchRoot, 'core', 'plugin', 'manifest.schema.json')), 'the manifest schema ships for plugin authors');
  // --ignore-scripts skipped the native build; the project's compiled better-sqlite3 was copied in.
  const Database = createRequire(join(app.appDir, 'package.json'))('better-sqlite3');
  const db = new Database(':memory:');
  assert.equal(db.prepare('select 6 * 7 as n').get().n, 42);
  db.close();
});

test('in-process through the installed SDK: discovered, activated, ordered from nutch-site.json, imported on first use', async (t) => {
  const marker = join(tempDir(t), 'imports.txt');
  process.env.NUTCH_EXAMPLE_MARKER = marker;
  t.after(() => delete process.env.NUTCH_EXAMPLE_MARKER);
  const sdk = await import(pathToFileURL(join(app.nutchRoot, 'dist', 'sdk', 'index.js')).href);
  const lines: string[] = [];
  const ctx = sdk.createContext({ cwd: app.appDir, root: app.appDir, env: {}, logger: sdk.createConsoleLogger('info', {}, (l: string) => lines.push(l)) });
  t.after(() => ctx.close());

  const d = ctx.plugins.descriptor('nutch-urlfilter-example');
  assert.ok(d, 'discovered from the app\'s dependencies');
  assert.equal(d.source, 'package');
  assert.equal(d.version, '1.0.0');
  assert.equal(sdk.describeActivation(ctx.plugins.activation.get('nutch-urlfilter-example')), 'active: matched plugin.includes');
  assert.equal(ctx.conf.sourceOf('urlfilter.order').layer, 'site');
  assert.equal(ctx.conf.sourceOf('urlfilter.order').source, join(app.appDir, 'conf', 'nutch-site.json'));
  assert.deepEqual(ctx.extensions.effectiveChains().URLFilter, ['nutch-urlfilter-example', 'app-local-filter'], 'urlfilter.order, not id order');
  assert.deepEqual(markerLines(marker), [], 'not imported at start');

  const filters = await ctx.extensions.urlFilters();
  assert.deepEqual(markerLines(marker), [`imported ${process.pid}`], 'imported on first use, once');
  assert.equal(filters.filter('http://ok.example/page'), 'http://ok.example/page');
  assert.equal(filters.filter('http://www.denied.example/page'), null);
  assert.deepEqual(filters.trace('http://denied.example/?q=1'), { result: null, rejectedBy: 'nutch-urlfilter-example' }, 'the first in urlfilter.order rejects first');
  assert.deepEqual(filters.trace('http://ok.example/?q=1'), { result: null, rejectedBy: 'app-local-filter' });
  await ctx.extensions.urlFilters();
  assert.equal(markerLines(marker).length, 1);
});

test('`nutch plugin list` in the app (node_modules/.bin/nutch): the plugin with its reason and the chains; nothing imported', async (t) => {
  const marker = join(tempDir(t), 'imports.txt');
  const r = await spawnNutch(['plugin', 'list'], { cwd: app.appDir, bin: app.nutchBin, env: { NUTCH_EXAMPLE_MARKER: marker } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^  \* nutch-urlfilter-example +1\.0\.0 +package +active: matched plugin\.includes$/m);
  assert.match(r.stdout, /^  \* app-local-filter +0\.0\.1 +folder +active: matched plugin\.includes$/m);
  assert.match(r.stdout, /^  \* urlnormalizer-pass +\S+ +builtin +active: matched plugin\.includes$/m);
  assert.match(r.stdout, /^  URLFilter: nutch-urlfilter-example -> app-local-filter$/m);
  assert.match(r.stdout, /^  URLNormalizer: urlnormalizer-pass$/m);
  assert.deepEqual(markerLines(marker), [], 'listing imports no plugin module');
  const info = await spawnNutch(['plugin', 'info', 'nutch-urlfilter-example'], { cwd: app.appDir, bin: app.nutchBin, env: { NUTCH_EXAMPLE_MARKER: marker } });
  assert.equal(info.code, 0, info.stderr);
  assert.match(info.stdout, /^nutch-urlfilter-example 1\.0\.0 \(package\)$/m);
  assert.match(info.stdout, /^  path: .*node_modules[\\/]nutch-urlfilter-example$/m);
  assert.match(info.stdout, /^  extension nutch-urlfilter-example -> URLFilter \(DenyHostURLFilter\) aliases: org\.example\.nutch\.urlfilter\.DenyHostURLFilter, nutch-urlfilter-example:deny$/m);
  assert.match(info.stdout, /^  properties: urlfilter\.example\.deny$/m);
  assert.deepEqual(markerLines(marker), []);
});

test('-D overrides the site file: reorder, and leave the plugin out of plugin.includes', async (t) => {
  const reordered = await spawnNutch(['plugin', 'list', '-D', 'urlfilter.order=app-local-filter nutch-urlfilter-example'], { cwd: app.appDir, bin: app.nutchBin });
  assert.equal(reordered.code, 0, reordered.stderr);
  assert.match(reordered.stdout, /^  URLFilter: app-local-filter -> nutch-urlfilter-example$/m);
  const excluded = await spawnNutch(['plugin', 'list', '-Dplugin.includes=urlnormalizer-pass|app-local-filter', '-json'], { cwd: app.appDir, bin: app.nutchBin });
  assert.equal(excluded.code, 0, excluded.stderr);
  const out = JSON.parse(excluded.stdout);
  const p = out.plugins.find((x: { id: string }) => x.id === 'nutch-urlfilter-example');
  assert.deepEqual([p.active, p.reason], [false, 'inactive: not matched by plugin.includes']);
  assert.deepEqual(out.chains.URLFilter, ['app-local-filter']);
  assert.match(excluded.stderr, /urlfilter\.order names "nutch-urlfilter-example", which is not an active URLFilter extension \(it belongs to plugin nutch-urlfilter-example, inactive: not matched by plugin\.includes\)/);
});

test('`nutch filterchecker -stdin` in the app uses the plugin, imported on first use', async (t) => {
  const marker = join(tempDir(t), 'imports.txt');
  const stdin = ['http://ok.example/a', 'http://denied.example/b', 'http://sub.denied.example/c', 'http://ok.example/?q'].join('\n') + '\n';
  const r = await spawnNutch(['filterchecker', '-stdin'], { cwd: app.appDir, bin: app.nutchBin, stdin, env: { NUTCH_EXAMPLE_MARKER: marker } });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), ['+http://ok.example/a', '-http://denied.example/b', '-http://sub.denied.example/c', '-http://ok.example/?q']);
  assert.equal(markerLines(marker).length, 1);
  const one = await spawnNutch(['filterchecker', '-filterName', 'org.example.nutch.urlfilter.DenyHostURLFilter', '-json', 'http://denied.example/x', 'http://ok.example/?q'], { cwd: app.appDir, bin: app.nutchBin });
  assert.equal(one.code, 0, one.stderr);
  assert.deepEqual(one.stdout.trim().split('\n').map((l) => JSON.parse(l)), [
    { url: 'http://denied.example/x', accepted: false, result: null, rejectedBy: 'nutch-urlfilter-example' },
    { url: 'http://ok.example/?q', accepted: true, result: 'http://ok.example/?q' },
  ]);
});

/**
 * Discovery (DESIGN §3): built-ins, then the app's DIRECT dependencies carrying a "nutch" key
 * (scoped names too; found from the nearest package.json), then plugin.folders. No node_modules crawl.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fixtureContext } from '../helpers/context.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { builtinPluginsDir } from '../../core/plugin/discovery.js';

function pluginPackage(dir: string, name: string, extra: object = {}) {
  writeFile(join(dir, 'package.json'), { name, version: '1.0.0', type: 'module', keywords: ['nutch-plugin'], nutch: { extensions: [{ id: 'f', point: 'URLFilter', implementation: 'F' }] }, ...extra });
  writeFile(join(dir, 'index.js'), 'export class F { filter(u) { return u; } }\n');
}

function app(t: Parameters<typeof tempDir>[0]) {
  const root = tempDir(t);
  writeFile(join(root, 'package.json'), { name: 'my-app', private: true, dependencies: { 'nutch-urlfilter-one': '1', '@acme/nutch-scoped': '1', 'left-pad': '1' }, devDependencies: { 'nutch-dev-only': '1' } });
  pluginPackage(join(root, 'node_modules', 'nutch-urlfilter-one'), 'nutch-urlfilter-one');
  pluginPackage(join(root, 'node_modules', '@acme', 'nutch-scoped'), '@acme/nutch-scoped');
  pluginPackage(join(root, 'node_modules', 'nutch-dev-only'), 'nutch-dev-only');
  writeFile(join(root, 'node_modules', 'left-pad', 'package.json'), { name: 'left-pad', version: '1.0.0' });
  // a plugin that is only a transitive dependency is not discovered
  pluginPackage(join(root, 'node_modules', 'nutch-transitive'), 'nutch-transitive');
  return root;
}

test('the app\'s direct dependencies with a "nutch" key are discovered, scoped names too; transitive ones are not', (t) => {
  const root = app(t);
  const ctx = fixtureContext(t, { root, config: { 'plugin.includes': '.*' } });
  const ids = ctx.plugins.descriptors.map((d) => d.id).sort();
  assert.deepEqual(ids, ['@acme/nutch-scoped', 'nutch-dev-only', 'nutch-urlfilter-one']);
  assert.ok(ctx.plugins.descriptors.every((d) => d.source === 'package'));
  assert.deepEqual(ctx.extensions.effectiveChains().URLFilter, ['@acme/nutch-scoped', 'nutch-dev-only', 'nutch-urlfilter-one']);
});

test('the nearest package.json above the working directory is the app', (t) => {
  const root = app(t);
  const deep = join(root, 'src', 'jobs');
  writeFile(join(deep, '.keep'), '');
  const ctx = fixtureContext(t, { root: deep, config: { 'plugin.includes': 'nutch-urlfilter-one' } });
  assert.equal(ctx.plugins.isActive('nutch-urlfilter-one'), true);
});

test('plugin.folders adds folders (relative to the app root), each a plugin or a folder of plugins', (t) => {
  const root = tempDir(t);
  pluginPackage(join(root, 'local', 'one'), 'local-one');
  writeFile(join(root, 'single', 'plugin.json'), { id: 'local-single', extensions: [] });
  const ctx = fixtureContext(t, { root, config: { 'plugin.folders': ['local', 'single', 'does-not-exist'] } });
  assert.deepEqual(ctx.plugins.descriptors.map((d) => [d.id, d.source]), [['local-one', 'folder'], ['local-single', 'folder']]);
});

test('the built-in plugins are discovered from the source tree when running from source', (t) => {
  assert.match(builtinPluginsDir(), /[\\/]plugins$/);
  const ctx = fixtureContext(t, { includeBuiltins: true });
  const pass = ctx.plugins.descriptor('urlnormalizer-pass');
  assert.equal(pass?.source, 'builtin');
  assert.match(pass!.mainPath!, /plugins[\\/]urlnormalizer-pass[\\/]index\.ts$/);
});

test('a folder named both in plugin.folders and in pluginFolders is scanned once', (t) => {
  const root = tempDir(t);
  writeFile(join(root, 'local', 'p', 'plugin.json'), { id: 'local-p', extensions: [] });
  const ctx = fixtureContext(t, { root, config: { 'plugin.folders': ['local'] }, pluginFolders: [join(root, 'local')] });
  assert.deepEqual(ctx.plugins.descriptors.map((d) => d.id), ['local-p']);
});

/** Manifests: plugin.json and package.json's "nutch" key; every error names the file and the JSON pointer. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readPluginFolder } from '../../core/plugin/manifest.js';
import { fixtureContext } from '../helpers/context.js';
import { pluginFixture, tempDir, writeFile } from '../helpers/temp-dir.js';

function rejects(dir: string, code: string, ...patterns: RegExp[]) {
  assert.throws(() => readPluginFolder(dir, 'folder'), (err: any) => {
    assert.equal(err.code, code);
    for (const p of patterns) assert.match(err.message, p);
    return true;
  });
}

test('plugin.json that is not JSON: the error names file:line:column', () => {
  rejects(pluginFixture('bad-json/fx-bad-json'), 'NUTCH_MANIFEST_INVALID_JSON', /fx-bad-json[\\/]plugin\.json:5:3: invalid JSON/);
});

test('a schema violation names the file and the JSON pointer', () => {
  rejects(pluginFixture('bad-schema/fx-bad-schema'), 'NUTCH_MANIFEST_INVALID', /fx-bad-schema[\\/]plugin\.json/, /\/extensions\/0 must have required property 'implementation'/);
  assert.throws(() => readPluginFolder(pluginFixture('bad-schema/fx-bad-schema'), 'folder'), (err: any) => err.details.pointer === '/extensions/0');
});

test('a misspelt manifest field is pointed at and the allowed fields are listed', () => {
  rejects(pluginFixture('bad-unknown-field/fx-typo'), 'NUTCH_MANIFEST_INVALID', /\/requries is not a known manifest field/, /requires/);
});

test('package.json that is not JSON is reported when it mentions "nutch", with file:line:column', (t) => {
  rejects(pluginFixture('pkg-bad-json/fx-pkg-bad-json'), 'NUTCH_MANIFEST_INVALID_JSON', /package\.json:3:32: invalid JSON/);
  // through discovery, not silently skipped
  assert.throws(() => fixtureContext(t, { pluginFolders: [pluginFixture('pkg-bad-json')] }), (err: any) => err.code === 'NUTCH_MANIFEST_INVALID_JSON');
});

test('a schema violation under package.json\'s "nutch" key has a /nutch/… pointer', () => {
  rejects(pluginFixture('pkg-bad-schema/fx-pkg-bad-schema'), 'NUTCH_MANIFEST_INVALID', /package\.json: invalid plugin manifest: \/nutch\/extensions\/0\/implementation must be string/);
});

test('`main` escaping the plugin root is refused, naming the manifest and /main', () => {
  rejects(pluginFixture('main-escape/fx-escape'), 'NUTCH_MANIFEST_MAIN_OUTSIDE_ROOT', /fx-escape[\\/]plugin\.json: \/main "\.\.\/outside\.js" resolves to .*outside\.js, outside the plugin folder/);
});

test('an absolute `main` outside the root is refused too', (t) => {
  const dir = tempDir(t);
  writeFile(join(dir, 'p', 'plugin.json'), { id: 'fx-abs', main: '/etc/passwd', extensions: [] });
  rejects(join(dir, 'p'), 'NUTCH_MANIFEST_MAIN_OUTSIDE_ROOT', /\/main "\/etc\/passwd"/);
});

test('plugin.json without an id is rejected', (t) => {
  const dir = tempDir(t);
  writeFile(join(dir, 'p', 'plugin.json'), { extensions: [] });
  rejects(join(dir, 'p'), 'NUTCH_MANIFEST_INVALID', /plugin\.json: invalid plugin manifest: .*'id'/);
});

test('a package plugin takes id and version from package.json, and the peerDependencies range', () => {
  const d = readPluginFolder(pluginFixture('host-version/fx-current'), 'package');
  assert.equal(d.id, 'fx-current');
  assert.equal(d.version, '1.2.3');
  assert.equal(d.hostRange, '>=0.1.0 <1.0.0');
  assert.equal(d.extensions[0]!.id, 'fx-current', 'a single extension takes the plugin id');
  assert.deepEqual(d.extensions[0]!.aliases, ['fx-current:f'], '…and keeps <plugin>:<name> as an alias');
});

test('extension ids: <plugin>:<name> when a plugin has several; .ts beside a missing .js is used from source', (t) => {
  const d = readPluginFolder(pluginFixture('kinds/fx-define'), 'folder');
  assert.deepEqual(d.extensions.map((e) => e.id), ['fx-define:strip', 'fx-define:nofrag']);
  const dir = tempDir(t);
  writeFile(join(dir, 'p', 'plugin.json'), { id: 'fx-ts', main: 'index.js', extensions: [] });
  writeFile(join(dir, 'p', 'index.ts'), 'export {};\n');
  assert.match(readPluginFolder(join(dir, 'p'), 'folder').mainPath!, /index\.ts$/);
});

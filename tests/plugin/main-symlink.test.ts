/** A plugin whose `main` is a symlink to a file outside its folder is refused before anything is imported. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { readPluginFolder } from '../../core/plugin/manifest.js';
import { runNutch } from '../helpers/cli.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

function linkedPlugin(t: Parameters<typeof tempDir>[0]) {
  const dir = tempDir(t);
  const marker = join(dir, 'imported.txt');
  // the module outside: importing it would leave a marker file
  writeFile(join(dir, 'outside.mjs'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'x');\nexport class Evil { filter(u) { return u; } }\n`);
  const root = join(dir, 'plugins', 'fx-linked');
  writeFile(join(root, 'plugin.json'), { id: 'fx-linked', main: 'index.mjs', extensions: [{ id: 'fx-linked', point: 'URLFilter', implementation: 'Evil' }] });
  symlinkSync(join(dir, 'outside.mjs'), join(root, 'index.mjs'));
  return { dir, root, marker };
}

test('manifest: main that is a link to a file outside the folder is NUTCH_MANIFEST_MAIN_OUTSIDE_ROOT', (t) => {
  const { root } = linkedPlugin(t);
  assert.throws(() => readPluginFolder(root, 'folder'), (err: { code: string; message: string }) =>
    err.code === 'NUTCH_MANIFEST_MAIN_OUTSIDE_ROOT' && /\/main "index\.mjs" is a link to .*outside\.mjs, outside the plugin folder/.test(err.message));
});

test('nutch plugin list with such a plugin: exit 2, the error names the manifest, the module is never imported', async (t) => {
  const { dir, marker } = linkedPlugin(t);
  const cwd = tempDir(t);
  writeFile(join(cwd, 'nutch-site.json'), { 'plugin.folders': [join(dir, 'plugins')], 'plugin.includes': 'fx-linked|urlnormalizer-pass' });
  const r = await runNutch(['plugin', 'list'], { cwd });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /fx-linked[\\/]plugin\.json: \/main "index\.mjs" is a link to/);
  assert.equal(existsSync(marker), false, 'the outside module was not imported');
});

test('a main inside the folder reached through a linked plugin folder is still accepted', (t) => {
  const dir = tempDir(t);
  const real = join(dir, 'real', 'fx-ok');
  writeFile(join(real, 'plugin.json'), { id: 'fx-ok', main: 'index.mjs', extensions: [] });
  writeFile(join(real, 'index.mjs'), 'export {};\n');
  symlinkSync(join(dir, 'real', 'fx-ok'), join(dir, 'fx-ok-link'));
  assert.equal(readPluginFolder(join(dir, 'fx-ok-link'), 'folder').id, 'fx-ok');
});

/**
 * The built-ins' manifest index that `npm run build` writes (core/plugin/write-builtin-index.ts, run
 * here as the build runs it): discovery from it gives the same descriptors as scanning the folder, reads
 * no plugin.json, and a bad manifest fails the build naming the file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeFile, projectRoot } from '../helpers/temp-dir.js';
import { builtinPluginsDir, discoverPlugins } from '../../core/plugin/discovery.js';
import { BUILTIN_INDEX_FILE } from '../../core/plugin/builtin-index.js';

/** A built plugins folder as dist/plugins holds it: every built-in's plugin.json and an index.js. */
function builtPluginsFolder(t: Parameters<typeof tempDir>[0]): string {
  const dir = tempDir(t);
  for (const id of readdirSync(builtinPluginsDir())) {
    const manifest = join(builtinPluginsDir(), id, 'plugin.json');
    if (!existsSync(manifest)) continue;
    writeFile(join(dir, id, 'index.js'), 'export {};\n');
    copyFileSync(manifest, join(dir, id, 'plugin.json'));
  }
  return dir;
}

function writeIndex(dir: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'core/plugin/write-builtin-index.ts'), dir], { cwd: projectRoot, encoding: 'utf8' });
}

test('descriptors from the index equal a scan of the folder, in the same order; no plugin.json is read', (t) => {
  const dir = builtPluginsFolder(t);
  const appRoot = tempDir(t);
  const scanned = discoverPlugins({ appRoot, folders: [], builtinsDir: dir });
  const r = writeIndex(dir);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`${BUILTIN_INDEX_FILE}: ${scanned.length} built-in plugins`));
  const indexed = discoverPlugins({ appRoot, folders: [], builtinsDir: dir });
  assert.ok(scanned.length >= 40, `${scanned.length} built-ins`);
  assert.deepEqual(indexed, scanned);
  // the index is what discovery reads: a manifest broken after the build is not read again
  writeFile(join(dir, 'parse-html', 'plugin.json'), '{ not json');
  assert.deepEqual(discoverPlugins({ appRoot, folders: [], builtinsDir: dir }).map((d) => d.id), scanned.map((d) => d.id));
  // without the index the folder is scanned, and the broken manifest is reported
  rmSync(join(dir, BUILTIN_INDEX_FILE));
  assert.throws(() => discoverPlugins({ appRoot, folders: [], builtinsDir: dir }), (e: any) => e.code === 'NUTCH_MANIFEST_INVALID_JSON' && e.message.includes(join(dir, 'parse-html', 'plugin.json')));
});

test('a built-in manifest that fails validation fails the index step, naming the file and the pointer', (t) => {
  const dir = builtPluginsFolder(t);
  writeFile(join(dir, 'urlfilter-regex', 'plugin.json'), { id: 'urlfilter-regex', extensions: [{ id: 'x', point: 'URLFilter' }] });
  const r = writeIndex(dir);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /NUTCH_MANIFEST_INVALID/);
  assert.ok(r.stderr.includes(join(dir, 'urlfilter-regex', 'plugin.json')), r.stderr);
  assert.match(r.stderr, /\/extensions\/0/);
  assert.equal(existsSync(join(dir, BUILTIN_INDEX_FILE)), false);
});

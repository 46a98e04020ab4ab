/** `nutch plugin list` (every plugin, active or not and why, plus the effective chains) and `nutch plugin info <id>`. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runNutch } from '../helpers/cli.js';
import { resetRecorder } from '../helpers/context.js';
import { pluginFixture, tempDir, writeFile } from '../helpers/temp-dir.js';

function confDir(t: Parameters<typeof tempDir>[0], site: object) {
  const dir = tempDir(t);
  writeFile(join(dir, 'nutch-site.json'), site);
  return dir;
}

const site = {
  'plugin.folders': [pluginFixture('dependencies'), pluginFixture('aliases'), pluginFixture('unknown-point')],
  'plugin.includes': 'fx-app|fx-orphan|fx-cycle-.*|fx-alias-.*|fx-unknown-point|urlnormalizer-pass',
  'plugin.excludes': 'fx-alias-b',
  'urlfilter.order': 'org.example.urlfilter.AURLFilter fx-app',
};

test('plugin list: every discovered plugin with active/inactive and the reason, then the chains in order', async (t) => {
  const r = await runNutch(['plugin', 'list'], { cwd: confDir(t, site) });
  assert.equal(r.code, 0, r.stderr);
  const line = (id: string) => r.stdout.split('\n').find((l) => new RegExp(`^  [* ] ${id.replace(/[-:]/g, '\\$&')} `).test(l)) ?? `(no line for ${id})`;
  assert.match(line('fx-app'), /^  \* fx-app .* active: matched plugin\.includes$/);
  assert.match(line('fx-lib'), /^  \* fx-lib .* active: auto-activated as a dependency of fx-app$/);
  assert.match(line('fx-solo'), /^    fx-solo .* inactive: not matched by plugin\.includes$/);
  assert.match(line('fx-alias-b'), /inactive: excluded by plugin\.excludes pattern "fx-alias-b"$/);
  assert.match(line('fx-orphan'), /inactive: missing dependency fx-nowhere \(no such plugin was found\)$/);
  assert.match(line('fx-cycle-a'), /inactive: dependency cycle fx-cycle-. -> fx-cycle-. -> fx-cycle-.$/);
  assert.match(line('fx-schedules'), /active: always \(provides FetchSchedule\)$/);
  assert.match(line('urlnormalizer-pass'), /^  \* urlnormalizer-pass +1\.0\.0 +builtin +active: matched plugin\.includes$/);
  assert.match(r.stdout, /^  ! extension fx-unknown-point:weird of fx-unknown-point skipped: extension point "NoSuchPoint" is not declared/m);
  assert.match(r.stdout, /^Extension chains \(in order\):$/m);
  assert.match(r.stdout, /^  URLFilter: fx-alias-a -> fx-app$/m);
  assert.match(r.stdout, /^  URLNormalizer: urlnormalizer-pass$/m);
  assert.match(r.stdout, /^  FetchSchedule: fx-schedules:default$/m);
  assert.match(r.stdout, /^  IndexWriter: \(none\)$/m);
  assert.match(r.stderr, /urlfilter\.order|Plugin fx-orphan not activated/, 'warnings go to stderr');
});

test('plugin list -json: plugins with reasons, chains, skipped extensions', async (t) => {
  const r = await runNutch(['plugin', 'list', '-json'], { cwd: confDir(t, site) });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { plugins: { id: string; active: boolean; reason: string; source: string }[]; chains: Record<string, string[]>; skippedExtensions: { extension: string }[] };
  const app = out.plugins.find((p) => p.id === 'fx-app')!;
  assert.deepEqual([app.active, app.reason, app.source], [true, 'active: matched plugin.includes', 'folder']);
  assert.deepEqual(out.chains.URLFilter, ['fx-alias-a', 'fx-app']);
  assert.deepEqual(out.skippedExtensions.map((s) => s.extension), ['fx-unknown-point:weird']);
  assert.deepEqual(out.plugins.map((p) => p.id), [...out.plugins.map((p) => p.id)].sort((a, b) => a.localeCompare(b)));
});

test('plugin info <id>: version, reason, path, extensions with aliases, properties', async (t) => {
  const cwd = confDir(t, { 'plugin.folders': [pluginFixture('kinds'), pluginFixture('aliases')], 'plugin.includes': 'fx-class' });
  const r = await runNutch(['plugin', 'info', 'fx-class'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^fx-class 1\.0\.0 \(folder\)$/m);
  assert.match(r.stdout, /^  active: matched plugin\.includes$/m);
  assert.match(r.stdout, /^  path: .*kinds[\\/]fx-class$/m);
  assert.match(r.stdout, /^  extension fx-class -> URLFilter \(WordFilter\) aliases: org\.example\.fx\.WordURLFilter, fx-class:word$/m);
  assert.match(r.stdout, /^  properties: fx\.kinds\.word, fx\.kinds\.count$/m);
  const json = JSON.parse((await runNutch(['plugin', 'info', 'fx-alias-b', '-json'], { cwd })).stdout);
  assert.equal(json.active, false);
  assert.equal(json.reason, 'inactive: not matched by plugin.includes');
});

test('plugin info without an id, an unknown id, or an unknown subcommand: exit 2', async (t) => {
  const cwd = confDir(t, {});
  const noId = await runNutch(['plugin', 'info'], { cwd });
  assert.equal(noId.code, 2);
  assert.match(noId.stderr, /NUTCH_USAGE: Usage: nutch plugin list/);
  const unknown = await runNutch(['plugin', 'info', 'no-such-plugin'], { cwd });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /NUTCH_PLUGIN_NOT_FOUND: No plugin "no-such-plugin" was discovered\. Known: .*urlnormalizer-pass/);
  const sub = await runNutch(['plugin', 'frobnicate'], { cwd });
  assert.equal(sub.code, 2);
  const none = await runNutch(['plugin'], { cwd });
  assert.equal(none.code, 2);
});

test('plugin list does not import any plugin module', async (t) => {
  const rec = resetRecorder();
  const r = await runNutch(['plugin', 'list'], { cwd: confDir(t, { 'plugin.folders': [pluginFixture('lifecycle')], 'plugin.includes': 'fx-.*' }) });
  assert.equal(r.code, 0);
  assert.deepEqual(rec.imports, []);
});

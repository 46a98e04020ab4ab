/** `nutch showproperties [-json]`: every property's value and the layer it came from. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runNutch } from '../helpers/cli.js';
import { pluginFixture, tempDir, writeFile } from '../helpers/temp-dir.js';

interface Row { name: string; value: unknown; layer: string; source: string; declaredBy: string | null }

test('showproperties -json: value, layer and source for every layer, plugin properties included', async (t) => {
  const cwd = tempDir(t);
  const site = writeFile(join(cwd, 'nutch-site.json'), { 'http.agent.name': 'site-bot', 'fetcher.threads.fetch': 3, 'plugin.folders': [pluginFixture('kinds')] });
  const r = await runNutch(['showproperties', '-json', '-D', 'fetcher.threads.fetch=8', '-Dfx.kinds.count=9'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  const rows = new Map((JSON.parse(r.stdout) as Row[]).map((row) => [row.name, row]));
  assert.deepEqual(rows.get('http.agent.name'), { name: 'http.agent.name', value: 'site-bot', layer: 'site', source: `set in ${site} at /http.agent.name`, declaredBy: 'core' });
  assert.deepEqual(rows.get('fetcher.threads.fetch'), { name: 'fetcher.threads.fetch', value: 8, layer: 'cli', source: 'set by -D on the command line', declaredBy: 'core' });
  assert.deepEqual(rows.get('http.timeout'), { name: 'http.timeout', value: 10000, layer: 'default', source: 'default from nutch-default.json', declaredBy: 'core' });
  assert.deepEqual(rows.get('fx.kinds.word'), { name: 'fx.kinds.word', value: 'plugin-default', layer: 'plugin', source: 'default from plugin fx-class', declaredBy: 'fx-class' });
  assert.equal(rows.get('fx.kinds.count')?.value, 9);
  const names = [...rows.keys()];
  assert.deepEqual(names, [...names].sort(), 'sorted by name');
});

test('showproperties (text): name, value and source per line, tab-separated', async (t) => {
  const cwd = tempDir(t);
  const r = await runNutch(['showproperties', '-D', 'http.agent.name=cli-bot', '-D', 'urlfilter.order=a b'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.ok(lines.includes('http.agent.name\tcli-bot\tset by -D on the command line'), lines.slice(0, 5).join('\n'));
  assert.ok(lines.includes('urlfilter.order\ta,b\tset by -D on the command line'));
  assert.ok(lines.includes('http.timeout\t10000\tdefault from nutch-default.json'));
});

test('showproperties with an unknown option exits 2', async (t) => {
  const r = await runNutch(['showproperties', '-xml'], { cwd: tempDir(t) });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Unknown option -xml/);
});

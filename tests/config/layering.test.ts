/** DESIGN §4: default < plugin config < nutch-site.json < programmatic < -D, each value knowing its layer. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadConfiguration } from '../../core/config/load-configuration.js';
import { Configuration, describeSource } from '../../core/config/configuration.js';
import { fixtureContext } from '../helpers/context.js';
import { pluginFixture, tempDir, writeFile } from '../helpers/temp-dir.js';

const word = 'fx.kinds.word'; // declared in the config of the fixture plugin fx-class

test('each layer overrides the one below it, and sourceOf names the layer and the source', (t) => {
  const dir = tempDir(t);
  const site = writeFile(join(dir, 'nutch-site.json'), { [word]: 'site', 'http.timeout': 2000, 'http.agent.name': 'site-bot', 'fetcher.server.delay': 2.5 });
  const layers = (opts: Parameters<typeof fixtureContext>[1]) => fixtureContext(t, { pluginFolders: [pluginFixture('kinds')], ...opts });

  const onlyDefaults = layers({ env: {}, cwd: tempDir(t) });
  assert.equal(onlyDefaults.conf.getString(word), 'plugin-default');
  assert.deepEqual(onlyDefaults.conf.sourceOf(word), { layer: 'plugin', source: 'fx-class' });
  assert.equal(onlyDefaults.conf.getInt('http.timeout'), 10000);
  assert.deepEqual(onlyDefaults.conf.sourceOf('http.timeout'), { layer: 'default', source: 'nutch-default.json' });

  const withSite = layers({ env: { NUTCH_CONF_DIR: dir } });
  assert.equal(withSite.conf.getString(word), 'site');
  assert.deepEqual(withSite.conf.sourceOf(word), { layer: 'site', source: site, pointer: `/${word}` });
  assert.equal(withSite.conf.getInt('http.timeout'), 2000);
  assert.equal(withSite.conf.getFloat('fetcher.server.delay'), 2.5);

  const programmatic = layers({ env: { NUTCH_CONF_DIR: dir }, config: { [word]: 'programmatic', 'http.timeout': 3000 } });
  assert.equal(programmatic.conf.getString(word), 'programmatic');
  assert.equal(programmatic.conf.sourceOf(word)?.layer, 'programmatic');
  assert.equal(programmatic.conf.getInt('http.timeout'), 3000);
  assert.equal(programmatic.conf.getString('http.agent.name'), 'site-bot', 'a value set only in the site file keeps its layer');
  assert.equal(programmatic.conf.sourceOf('http.agent.name')?.layer, 'site');

  const cli = layers({ env: { NUTCH_CONF_DIR: dir }, config: { [word]: 'programmatic' }, defines: { [word]: 'cli', 'http.timeout': '4000' } });
  assert.equal(cli.conf.getString(word), 'cli');
  assert.deepEqual(cli.conf.sourceOf(word), { layer: 'cli', source: '-D' });
  assert.equal(cli.conf.getInt('http.timeout'), 4000, '-D strings coerce to the declared type');
  assert.equal(describeSource(cli.conf.sourceOf(word)!), 'set by -D on the command line');
  assert.match(describeSource(withSite.conf.sourceOf(word)!), new RegExp(`set in .*nutch-site\\.json at /${word.replace(/\./g, '\\.')}`));
});

test('a lower layer never overrides a higher one, whatever the order of set() calls', () => {
  const conf = loadConfiguration({ env: {}, cwd: '/nonexistent-nutch-cwd', defines: { 'http.timeout': '4000' } });
  conf.set('http.timeout', 1, { layer: 'site', source: 'late.json' });
  conf.set('http.timeout', 2, { layer: 'programmatic', source: 'late' });
  assert.equal(conf.getInt('http.timeout'), 4000);
  conf.declare({ 'x.late': { type: 'int', default: 7, description: 'late plugin default' } }, 'fx-late', 'plugin', 'fx-late');
  conf.set('x.late', 9, { layer: 'site', source: 'site.json' });
  conf.declare({ 'x.late': { type: 'int', default: 8, description: 'late plugin default' } }, 'fx-late', 'plugin', 'fx-late');
  assert.equal(conf.getInt('x.late'), 9, 're-declaring a plugin default does not override the site value');
});

test('a property declared by two owners is an error naming both', () => {
  const conf = loadConfiguration({ env: {}, cwd: '/nonexistent-nutch-cwd' });
  assert.throws(
    () => conf.declare({ 'http.timeout': { type: 'int', default: 1, description: 'again' } }, 'fx-rogue', 'plugin'),
    (err: any) => err.code === 'NUTCH_CONFIG_INVALID_VALUE' && /http\.timeout/.test(err.message) && /core/.test(err.message) && /fx-rogue/.test(err.message),
  );
});

test('snapshot() round-trips values, definitions and provenance (what a parse worker receives)', (t) => {
  const dir = tempDir(t);
  writeFile(join(dir, 'nutch-site.json'), { 'http.agent.name': 'snap' });
  const conf = loadConfiguration({ env: { NUTCH_CONF_DIR: dir }, cwd: dir, defines: { 'http.timeout': '1234' } });
  const restored = Configuration.fromSnapshot(structuredClone(conf.snapshot()));
  assert.equal(restored.getString('http.agent.name'), 'snap');
  assert.equal(restored.getInt('http.timeout'), 1234);
  assert.deepEqual(restored.sourceOf('http.timeout'), { layer: 'cli', source: '-D' });
  assert.deepEqual(restored.confDirs, conf.confDirs);
});

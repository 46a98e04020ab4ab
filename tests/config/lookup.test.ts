/** Where nutch-site.json and rule files are found: $NUTCH_CONF_DIR, then ./conf, then the working directory, then the package's conf/. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { confSearchDirs, loadConfiguration, resolveConfFile, shippedConfDir } from '../../core/config/load-configuration.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

test('site file lookup order: NUTCH_CONF_DIR, then ./conf, then the working directory', (t) => {
  const cwd = tempDir(t);
  const envDir = tempDir(t);
  writeFile(join(cwd, 'nutch-site.json'), { 'http.agent.name': 'from-cwd' });
  assert.equal(loadConfiguration({ cwd, env: {} }).getString('http.agent.name'), 'from-cwd');
  writeFile(join(cwd, 'conf', 'nutch-site.json'), { 'http.agent.name': 'from-conf' });
  assert.equal(loadConfiguration({ cwd, env: {} }).getString('http.agent.name'), 'from-conf');
  writeFile(join(envDir, 'nutch-site.json'), { 'http.agent.name': 'from-env' });
  const conf = loadConfiguration({ cwd, env: { NUTCH_CONF_DIR: envDir } });
  assert.equal(conf.getString('http.agent.name'), 'from-env');
  assert.equal(conf.sourceOf('http.agent.name')?.source, join(envDir, 'nutch-site.json'));
  assert.deepEqual(conf.confDirs, [envDir, join(cwd, 'conf'), cwd]);
});

test('a relative NUTCH_CONF_DIR resolves against the working directory; an empty dir means defaults only', (t) => {
  const cwd = tempDir(t);
  writeFile(join(cwd, 'my-conf', 'nutch-site.json'), { 'http.agent.name': 'relative' });
  assert.deepEqual(confSearchDirs(cwd, { NUTCH_CONF_DIR: 'my-conf' }), [join(cwd, 'my-conf'), join(cwd, 'conf'), cwd]);
  assert.equal(loadConfiguration({ cwd, env: { NUTCH_CONF_DIR: 'my-conf' } }).getString('http.agent.name'), 'relative');
  const empty = tempDir(t);
  const conf = loadConfiguration({ cwd: empty, env: { NUTCH_CONF_DIR: empty } });
  assert.equal(conf.getString('http.agent.name'), '');
  assert.equal(conf.sourceOf('http.agent.name')?.layer, 'default');
});

test('an explicit configFile is used instead of the lookup, and a missing one is an error', (t) => {
  const cwd = tempDir(t);
  writeFile(join(cwd, 'nutch-site.json'), { 'http.agent.name': 'looked-up' });
  writeFile(join(cwd, 'other.json'), { 'http.agent.name': 'explicit' });
  assert.equal(loadConfiguration({ cwd, env: {}, configFile: 'other.json' }).getString('http.agent.name'), 'explicit');
  assert.throws(() => loadConfiguration({ cwd, env: {}, configFile: 'missing.json' }), (err: any) => err.code === 'NUTCH_CONFIG_FILE_NOT_FOUND' && /missing\.json does not exist/.test(err.message));
});

test('files named by properties: conf dirs in order, then the package conf/, absolute as is; missing names the property', (t) => {
  const cwd = tempDir(t);
  const envDir = tempDir(t);
  const conf = loadConfiguration({ cwd, env: { NUTCH_CONF_DIR: envDir } });
  const inCwd = writeFile(join(cwd, 'rules.txt'), '+.\n');
  assert.equal(resolveConfFile(conf, 'rules.txt', 'urlfilter.regex.file'), inCwd);
  const inConf = writeFile(join(cwd, 'conf', 'rules.txt'), '+.\n');
  assert.equal(resolveConfFile(conf, 'rules.txt'), inConf);
  const inEnv = writeFile(join(envDir, 'rules.txt'), '+.\n');
  assert.equal(resolveConfFile(conf, 'rules.txt'), inEnv);
  assert.equal(resolveConfFile(conf, 'nutch-default.json'), join(shippedConfDir(), 'nutch-default.json'), 'the package conf/ last');
  assert.equal(resolveConfFile(conf, inCwd), inCwd);
  assert.throws(() => resolveConfFile(conf, 'nope.txt', 'urlfilter.regex.file'), (err: any) =>
    err.code === 'NUTCH_CONFIG_FILE_NOT_FOUND' && /File "nope\.txt" \(named by urlfilter\.regex\.file\) was not found; looked in: /.test(err.message) && err.message.includes(envDir));
  assert.throws(() => resolveConfFile(conf, join(cwd, 'abs-missing.txt')), (err: any) => err.code === 'NUTCH_CONFIG_FILE_NOT_FOUND');
});

/**
 * Bad configuration (DESIGN §4): invalid JSON names file:line:column; a wrong-typed value names the
 * property, the file and the JSON pointer; unknown keys warn with the closest known name; Nutch
 * properties nutch-ts does not support say so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fixtureContext, logged } from '../helpers/context.js';
import { pluginFixture, tempDir, writeFile } from '../helpers/temp-dir.js';

function siteContext(t: Parameters<typeof fixtureContext>[0], site: string | object, extra: Parameters<typeof fixtureContext>[1] = {}) {
  const dir = tempDir(t);
  const path = writeFile(join(dir, 'nutch-site.json'), site);
  return { path, make: () => fixtureContext(t, { env: { NUTCH_CONF_DIR: dir }, ...extra }) };
}

test('invalid JSON in nutch-site.json names file:line:column', (t) => {
  const { path, make } = siteContext(t, '{\n  "http.agent.name": "bot",\n  "http.timeout": 100,\n}\n');
  assert.throws(make, (err: any) => {
    assert.equal(err.code, 'NUTCH_CONFIG_INVALID_JSON');
    assert.ok(err.message.startsWith(`${path}:4:1: invalid JSON`), err.message);
    assert.equal(err.details.file, path);
    return true;
  });
});

test('a JSON error V8 reports without a position still gets line:column', (t) => {
  const { path, make } = siteContext(t, '{\n  "http.agent.name": tru\n}\n');
  assert.throws(make, (err: any) => err.code === 'NUTCH_CONFIG_INVALID_JSON' && err.message.startsWith(`${path}:2:25: invalid JSON`) && !err.message.includes('is not valid JSON'));
});

test('nutch-site.json must be an object of properties', (t) => {
  const { path, make } = siteContext(t, '["http.agent.name", "bot"]');
  assert.throws(make, (err: any) => err.code === 'NUTCH_CONFIG_INVALID_VALUE' && err.message.startsWith(`${path}: expected a JSON object`));
});

test('a wrong-typed value names the property, the file and the JSON pointer', (t) => {
  const { path, make } = siteContext(t, { 'http.agent.name': 'bot', 'fetcher.threads.fetch': 'many' });
  assert.throws(make, (err: any) => {
    assert.equal(err.code, 'NUTCH_CONFIG_INVALID_VALUE');
    assert.match(err.message, /Invalid value for property "fetcher\.threads\.fetch"/);
    assert.ok(err.message.includes(`set in ${path} at /fetcher.threads.fetch`), err.message);
    assert.match(err.message, /expected an integer, got "many"/);
    assert.deepEqual([err.details.property, err.details.file, err.details.pointer], ['fetcher.threads.fetch', path, '/fetcher.threads.fetch']);
    return true;
  });
});

test('a wrong-typed plugin property is validated against the plugin\'s config declaration', (t) => {
  const { path, make } = siteContext(t, { 'fx.kinds.count': 0 }, { pluginFolders: [pluginFixture('kinds')] });
  assert.throws(make, (err: any) => err.code === 'NUTCH_CONFIG_INVALID_VALUE' && err.message.includes(`"fx.kinds.count" (set in ${path} at /fx.kinds.count): 0 is below the minimum 1`));
});

test('a wrong-typed -D value says it came from the command line', (t) => {
  assert.throws(() => fixtureContext(t, { defines: { 'http.timeout': 'slow' } }), (err: any) =>
    err.code === 'NUTCH_CONFIG_INVALID_VALUE' && /"http\.timeout" \(set by -D on the command line\): expected an integer/.test(err.message));
});

test('an unknown key is a warning naming the closest known key, not an error', (t) => {
  const { path, make } = siteContext(t, { 'http.agent.nmae': 'bot', 'fetcher.thread.fetch': 3, 'completely.unrelated.thing': 1 });
  const ctx = make();
  const warnings = logged(ctx);
  assert.ok(warnings.includes(`Unknown property "http.agent.nmae" (set in ${path} at /http.agent.nmae); did you mean "http.agent.name"?`), warnings.join('\n'));
  assert.ok(warnings.some((w) => w.startsWith('Unknown property "fetcher.thread.fetch"') && w.endsWith('did you mean "fetcher.threads.fetch"?')));
  assert.ok(warnings.some((w) => /^Unknown property "completely\.unrelated\.thing" \(.*\)\.$/.test(w)), 'no suggestion when nothing is close');
});

test('an unknown key close to a plugin\'s property suggests it', (t) => {
  const { make } = siteContext(t, { 'fx.kinds.wrod': 'x' }, { pluginFolders: [pluginFixture('kinds')] });
  assert.ok(logged(make()).some((w) => w.includes('did you mean "fx.kinds.word"?')));
});

test('a Nutch property that nutch-ts does not support says "not supported"', (t) => {
  const { make } = siteContext(t, { 'mapreduce.job.reduces': 4 });
  assert.ok(logged(make()).some((w) => /Property "mapreduce\.job\.reduces" \(set in .*\) is a Nutch property that nutch-ts does not support; it is ignored\./.test(w)));
});

test('a -D for an unknown key warns as well', (t) => {
  const ctx = fixtureContext(t, { defines: { 'plugin.include': 'x' } });
  assert.ok(logged(ctx).includes('Unknown property "plugin.include" (set by -D on the command line); did you mean "plugin.includes"?'), logged(ctx).join('\n'));
});

test('a wrong-typed value read before validation (plugin.folders) still names the file and pointer', (t) => {
  const { path, make } = siteContext(t, { 'plugin.folders': 5 });
  assert.throws(make, (err: any) => err.code === 'NUTCH_CONFIG_INVALID_VALUE' && err.details.file === path && err.details.pointer === '/plugin.folders' && err.message.includes(`set in ${path} at /plugin.folders`));
});

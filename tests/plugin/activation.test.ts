/**
 * Which plugins are active and why (DESIGN §3): whole-id includes/excludes, auto-activation, missing
 * dependencies, cycles, duplicate ids, unknown points, incompatible host versions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeActivation } from '../../core/plugin/activation.js';
import { fixtureContext, logged } from '../helpers/context.js';
import { join } from 'node:path';
import { pluginFixture, tempDir, writeFile } from '../helpers/temp-dir.js';

const reason = (ctx: ReturnType<typeof fixtureContext>, id: string) => describeActivation(ctx.plugins.activation.get(id)!);

test('plugin.includes matches the WHOLE id: "fx-urlfilter-regex" does not activate fx-urlfilter-regex2', (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('matching')], config: { 'plugin.includes': 'fx-urlfilter-regex' } });
  assert.equal(ctx.plugins.isActive('fx-urlfilter-regex'), true);
  assert.equal(ctx.plugins.isActive('fx-urlfilter-regex2'), false);
  assert.equal(ctx.plugins.isActive('fx-urlfilter-regexp'), false);
  assert.equal(reason(ctx, 'fx-urlfilter-regex2'), 'inactive: not matched by plugin.includes');
  assert.deepEqual(ctx.extensions.effectiveChains().URLFilter, ['fx-urlfilter-regex']);
});

test('plugin.includes alternatives and plugin.excludes (whole id too)', (t) => {
  const ctx = fixtureContext(t, {
    pluginFolders: [pluginFixture('matching')],
    config: { 'plugin.includes': 'fx-urlfilter-regex.*', 'plugin.excludes': 'fx-urlfilter-regex2|fx-urlfilter-reg' },
  });
  assert.equal(ctx.plugins.isActive('fx-urlfilter-regex'), true);
  assert.equal(ctx.plugins.isActive('fx-urlfilter-regexp'), true, 'the exclude "fx-urlfilter-reg" is not a prefix match');
  assert.equal(reason(ctx, 'fx-urlfilter-regex2'), 'inactive: excluded by plugin.excludes pattern "fx-urlfilter-regex2|fx-urlfilter-reg"');
});

test('an invalid regex in plugin.includes is a configuration error naming the property', (t) => {
  assert.throws(
    () => fixtureContext(t, { pluginFolders: [pluginFixture('matching')], config: { 'plugin.includes': 'fx-(urlfilter' } }),
    (err: any) => err.code === 'NUTCH_CONFIG_INVALID_VALUE' && /plugin\.includes/.test(err.message) && /does not compile/.test(err.message) && err.details.property === 'plugin.includes',
  );
  assert.throws(
    () => fixtureContext(t, { pluginFolders: [pluginFixture('matching')], defines: { 'plugin.excludes': '[' } }),
    (err: any) => err.code === 'NUTCH_CONFIG_INVALID_VALUE' && /plugin\.excludes/.test(err.message),
  );
});

test('auto-activation on: a required plugin is activated and the reason names its dependant', (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('dependencies')], config: { 'plugin.includes': 'fx-app' } });
  assert.equal(ctx.plugins.isActive('fx-app'), true);
  assert.equal(ctx.plugins.isActive('fx-lib'), true);
  assert.equal(reason(ctx, 'fx-lib'), 'active: auto-activated as a dependency of fx-app');
  assert.equal(ctx.plugins.isActive('fx-solo'), false);
});

test('auto-activation off: the dependant is dropped with a warning that says why', (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('dependencies')], config: { 'plugin.includes': 'fx-app', 'plugin.auto-activation': false } });
  assert.equal(ctx.plugins.isActive('fx-app'), false);
  assert.equal(ctx.plugins.isActive('fx-lib'), false);
  assert.match(reason(ctx, 'fx-app'), /inactive: missing dependency fx-lib \(not matched by plugin\.includes, and plugin\.auto-activation is false\)/);
  assert.ok(logged(ctx).some((m) => /Plugin fx-app not activated: missing dependency fx-lib/.test(m)), logged(ctx).join('\n'));
});

test('auto-activation activates a required plugin even when plugin.excludes names it, as Nutch', (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('dependencies')], config: { 'plugin.includes': 'fx-app', 'plugin.excludes': 'fx-lib' } });
  assert.equal(ctx.plugins.isActive('fx-lib'), true, 'Nutch activates what is required; the dependant names why');
  assert.equal(reason(ctx, 'fx-lib'), 'active: auto-activated as a dependency of fx-app');
});

test('a missing dependency drops the plugin with a warning naming it; the crawl goes on', (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('dependencies')], config: { 'plugin.includes': 'fx-orphan|fx-solo' } });
  assert.equal(ctx.plugins.isActive('fx-orphan'), false);
  assert.equal(ctx.plugins.isActive('fx-solo'), true);
  assert.equal(reason(ctx, 'fx-orphan'), 'inactive: missing dependency fx-nowhere (no such plugin was found)');
  assert.ok(logged(ctx).some((m) => m.includes('Plugin fx-orphan not activated: missing dependency fx-nowhere')));
});

test('a dependency cycle drops every plugin in it and those that need them, naming the cycle', (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('dependencies')], config: { 'plugin.includes': 'fx-cycle-.*|fx-needs-cycle|fx-solo' } });
  for (const id of ['fx-cycle-a', 'fx-cycle-b']) assert.match(reason(ctx, id), /^inactive: dependency cycle (fx-cycle-a -> fx-cycle-b -> fx-cycle-a|fx-cycle-b -> fx-cycle-a -> fx-cycle-b)$/);
  assert.match(reason(ctx, 'fx-needs-cycle'), /^inactive: missing dependency fx-cycle-a \(inactive: dependency cycle/);
  assert.equal(ctx.plugins.isActive('fx-solo'), true);
  const warnings = logged(ctx).join('\n');
  assert.match(warnings, /Plugin fx-cycle-a not activated: dependency cycle/);
  assert.match(warnings, /Plugin fx-needs-cycle not activated: missing dependency fx-cycle-a/);
});

test('a duplicate plugin id is an error naming both manifest paths', (t) => {
  assert.throws(
    () => fixtureContext(t, { pluginFolders: [pluginFixture('duplicate/a'), pluginFixture('duplicate/b')] }),
    (err: any) => {
      assert.equal(err.code, 'NUTCH_PLUGIN_DUPLICATE_ID');
      assert.match(err.message, /"fx-dup" is declared twice: .*duplicate[\\/]a[\\/]fx-dup[\\/]plugin\.json and .*duplicate[\\/]b[\\/]fx-dup[\\/]plugin\.json/);
      return true;
    },
  );
});

test('a plugin object whose id clashes with a discovered plugin is a duplicate too', (t) => {
  assert.throws(
    () => fixtureContext(t, { pluginFolders: [pluginFixture('matching')], plugins: [{ id: 'fx-urlfilter-regex', extensions: [] }] }),
    (err: any) => err.code === 'NUTCH_PLUGIN_DUPLICATE_ID' && /fx-urlfilter-regex[\\/]plugin\.json and a plugin object/.test(err.message),
  );
});

test('an extension for an unknown point is skipped and reported, the plugin\'s other extensions work', async (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('unknown-point')], config: { 'plugin.includes': 'fx-.*' } });
  assert.deepEqual(ctx.plugins.skippedExtensions.map((s) => [s.extension, s.point]), [['fx-unknown-point:weird', 'NoSuchPoint']]);
  assert.ok(logged(ctx).some((m) => /fx-unknown-point: extension fx-unknown-point:weird skipped: extension point "NoSuchPoint" is not declared/.test(m)));
  const filters = await ctx.extensions.urlFilters();
  assert.deepEqual(filters.chain, ['fx-unknown-point:ok']);
  // a point declared by a plugin's extensionPoints is known, and its extensions are listed
  assert.deepEqual(ctx.extensions.effectiveChains()['fx.Gauge'], ['fx-point-owner']);
});

test('a package built for an incompatible nutch-ts (peerDependencies ^99) is reported and not activated', (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('host-version')], config: { 'plugin.includes': 'fx-.*' } });
  assert.equal(ctx.plugins.isActive('fx-future'), false);
  assert.match(reason(ctx, 'fx-future'), /^inactive: built for nutch-ts \^99\.0\.0, this is \d+\.\d+\.\d+/);
  assert.ok(logged(ctx).some((m) => /Plugin fx-future not activated: built for nutch-ts \^99\.0\.0/.test(m)));
  assert.equal(ctx.plugins.isActive('fx-current'), true);
});

test('plugins that provide FetchSchedule or Signature are always active', (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('aliases')], config: { 'plugin.includes': 'nothing-at-all' } });
  assert.equal(reason(ctx, 'fx-schedules'), 'active: always (provides FetchSchedule)');
  assert.equal(ctx.plugins.isActive('fx-alias-a'), false);
});

test('a plugin requiring itself is a cycle of one; a dependency shared by two plugins names both', (t) => {
  const dir = tempDir(t);
  const plugin = (id: string, requires: string[] = []) => writeFile(join(dir, id, 'plugin.json'), { id, requires, extensions: [] });
  plugin('fx-self', ['fx-self']);
  plugin('fx-shared');
  plugin('fx-user-1', ['fx-shared']);
  plugin('fx-user-2', ['fx-shared']);
  const ctx = fixtureContext(t, { pluginFolders: [dir], config: { 'plugin.includes': 'fx-self|fx-user-.' } });
  assert.equal(reason(ctx, 'fx-self'), 'inactive: dependency cycle fx-self -> fx-self');
  assert.equal(reason(ctx, 'fx-shared'), 'active: auto-activated as a dependency of fx-user-1, fx-user-2');
});

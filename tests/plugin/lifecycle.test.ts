/**
 * Lazy loading and the plugin lifecycle (DESIGN §3): no module is imported before its first use;
 * start() runs after the plugin's dependencies; stop() in reverse, only for started plugins; a start()
 * that throws fails with NUTCH_PLUGIN_START_FAILED and nothing after it is instantiated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureContext, resetRecorder } from '../helpers/context.js';
import { copyFixture, pluginFixture } from '../helpers/temp-dir.js';

test('a plugin module is not imported until one of its extensions is first used', async (t) => {
  const rec = resetRecorder();
  const folder = copyFixture(t, 'lazy');
  const ctx = fixtureContext(t, { pluginFolders: [folder], config: { 'plugin.includes': 'fx-lazy' } });
  assert.equal(ctx.plugins.isActive('fx-lazy'), true);
  assert.deepEqual(ctx.extensions.effectiveChains().URLFilter, ['fx-lazy'], 'listing the chains imports nothing');
  assert.deepEqual(rec.imports, []);
  const filters = await ctx.extensions.urlFilters();
  assert.deepEqual(rec.imports, ['fx-lazy']);
  assert.equal(filters.filter('http://example.com/lazy'), null);
  assert.equal(filters.filter('http://example.com/busy'), 'http://example.com/busy');
  await ctx.extensions.urlFilters();
  assert.deepEqual(rec.imports, ['fx-lazy'], 'imported once');
});

test('start() runs in dependency order; stop() in reverse, only for the plugins that started', async (t) => {
  const rec = resetRecorder();
  const ctx = fixtureContext(t, { pluginFolders: [copyFixture(t, 'lifecycle')], config: { 'plugin.includes': 'fx-top|fx-idle' } });
  assert.deepEqual(ctx.plugins.startOrder(), ['fx-base', 'fx-idle', 'fx-mid', 'fx-top'], 'dependencies first, ties by id');
  assert.deepEqual(rec.events, [], 'nothing starts before first use');

  const filters = await ctx.extensions.urlFilters('fx-top');
  assert.deepEqual(filters.chain, ['fx-top']);
  assert.deepEqual(rec.events, ['start fx-base', 'start fx-mid', 'start fx-top']);
  assert.deepEqual([...ctx.plugins.startedPlugins()], ['fx-base', 'fx-mid', 'fx-top']);
  await ctx.close();
  assert.deepEqual(rec.events.slice(3), ['stop fx-top', 'stop fx-mid', 'stop fx-base'], 'fx-idle never started, so never stops');
  await ctx.close();
  assert.equal(rec.events.length, 6, 'close() is idempotent');
  await assert.rejects(ctx.extensions.urlFilters(), (err: any) => err.code === 'NUTCH_CLOSED');
});

test('a plugin whose start() throws: NUTCH_PLUGIN_START_FAILED naming it, nothing after it instantiated', async (t) => {
  const rec = resetRecorder();
  const ctx = fixtureContext(t, {
    pluginFolders: [pluginFixture('start-throws')],
    config: { 'plugin.includes': 'fx-.*', 'urlfilter.order': ['fx-ok', 'fx-boom', 'fx-after'] },
  });
  await assert.rejects(ctx.extensions.urlFilters(), (err: any) => {
    assert.equal(err.code, 'NUTCH_PLUGIN_START_FAILED');
    assert.equal(err.details.plugin, 'fx-boom');
    assert.match(err.message, /Plugin fx-boom failed to start: database unreachable/);
    return true;
  });
  assert.ok(!rec.events.includes('construct fx-after'), rec.events.join());
  assert.ok(!rec.events.includes('construct fx-boom'));
  assert.ok(!rec.imports.includes('fx-after'), 'the plugin after the failing one is not even imported');
  await ctx.close();
  assert.ok(!rec.events.includes('stop fx-boom'), 'a plugin that failed to start is not stopped');
});

test('a missing main module is reported on first use, naming the plugin and the path', async (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('missing-main')], config: { 'plugin.includes': 'fx-missing-main' } });
  assert.equal(ctx.plugins.isActive('fx-missing-main'), true, 'discovery does not import, so it cannot know yet');
  await assert.rejects(ctx.extensions.urlFilters(), (err: any) => {
    assert.equal(err.code, 'NUTCH_PLUGIN_MODULE_NOT_FOUND');
    assert.match(err.message, /Plugin fx-missing-main: cannot import main module .*lib[\\/]nowhere\.js \(declared in .*plugin\.json\)/);
    return true;
  });
});

test('a missing export is reported on first use, naming the plugin, the export and what exists', async (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('missing-export')], config: { 'plugin.includes': 'fx-missing-export' } });
  await assert.rejects(ctx.extensions.urlFilters(), (err: any) => {
    assert.equal(err.code, 'NUTCH_PLUGIN_EXPORT_NOT_FOUND');
    assert.match(err.message, /Plugin fx-missing-export: .*index\.js has no export "Filtre" for extension fx-missing-export \(URLFilter\)\. Exports: Filter, helper\./);
    return true;
  });
});

test('an implementation without its point\'s methods is refused, naming what it lacks', async (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('bad-impl')], config: { 'plugin.includes': 'fx-bad-impl' } });
  await assert.rejects(ctx.extensions.urlFilters(), (err: any) => err.code === 'NUTCH_PLUGIN_BAD_IMPLEMENTATION' && /fx-bad-impl .*URLFilter.* lacks filter\(\)/.test(err.message));
});

/**
 * How an implementation becomes an instance (DESIGN §3): a plain class (constructor gets the
 * PluginContext), a factory (maybe async), definePlugin, a plain object; plugins passed as objects;
 * one repository per crawler, so two contexts never share instances.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { definePlugin } from '../../sdk/plugin.js';
import type { PluginContext, URLFilter } from '../../sdk/plugin.js';
import { fixtureContext, resetRecorder } from '../helpers/context.js';
import { pluginFixture } from '../helpers/temp-dir.js';

const kinds = pluginFixture('kinds');

test('a plain class is constructed with the PluginContext (conf, plugin info, parameters)', async (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [kinds], config: { 'plugin.includes': 'fx-class', 'fx.kinds.word': 'secret' } });
  const filters = await ctx.extensions.urlFilters();
  assert.deepEqual(filters.chain, ['fx-class']);
  assert.equal(filters.filter('http://a.example/secret'), null);
  assert.equal(filters.filter('http://a.example/public'), 'http://a.example/public');
  const instance = await ctx.plugins.getInstance<{ plugin: string; word: string }>(ctx.plugins.getExtensions('URLFilter')[0]!);
  assert.equal(instance.plugin, 'fx-class');
  assert.equal(instance.word, 'secret');
});

test('a factory (async) receives the extension parameters and its result is the instance', async (t) => {
  const rec = resetRecorder();
  const ctx = fixtureContext(t, { pluginFolders: [kinds], config: { 'plugin.includes': 'fx-factory', 'urlnormalizer.order': [] } });
  const normalizers = await ctx.extensions.urlNormalizers('default');
  assert.deepEqual(normalizers.chain, ['fx-factory']);
  assert.equal(normalizers.normalize('HTTP://Example.COM/A'), 'http://example.com/a');
  assert.ok(rec.events.includes('factory fx-factory mode=lower'), rec.events.join());
});

test('definePlugin: extensions keyed by implementation name, class or factory; start(ctx) before first use', async (t) => {
  const rec = resetRecorder();
  const ctx = fixtureContext(t, { pluginFolders: [kinds], config: { 'plugin.includes': 'fx-define', 'urlnormalizer.order': [] } });
  assert.deepEqual(ctx.extensions.effectiveChains().URLNormalizer, ['fx-define:strip']);
  const normalizers = await ctx.extensions.urlNormalizers('default');
  assert.equal(normalizers.normalize('http://a.example/x#frag'), 'http://a.example/x');
  const filters = await ctx.extensions.urlFilters();
  assert.deepEqual(filters.chain, ['fx-define:nofrag']);
  assert.equal(filters.filter('http://a.example/?q=1'), null);
  assert.equal(rec.events.filter((e) => e === 'start fx-define').length, 1, 'started once for both extensions');
  await ctx.close();
  assert.ok(rec.events.includes('stop fx-define'));
});

test('a plain object export is used as the instance', async (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [kinds], config: { 'plugin.includes': 'fx-object' } });
  const exemptions = await ctx.extensions.urlExemptionFilters();
  assert.equal(exemptions.isExempted('http://a.example/', 'http://b.example/'), true);
  assert.equal(exemptions.isExempted('http://a.example/', 'http://b.org/'), false);
});

test('plugins passed as objects: class, factory and object implementations, lifecycle, ordering', async (t) => {
  const events: string[] = [];
  class Deny implements URLFilter {
    constructor(readonly ctx: PluginContext) {}
    filter(url: string) { return url.includes(this.ctx.parameters.word ?? '?') ? null : url; }
  }
  const ctx = fixtureContext(t, {
    config: { 'urlfilter.order': ['app-filters:second', 'app-filters:first'] },
    plugins: [{
      id: 'app-filters',
      start: (c) => void events.push(`start ${c.plugin.id}`),
      stop: () => void events.push('stop'),
      extensions: [
        { id: 'first', point: 'URLFilter', implementation: Deny, parameters: { word: 'ads' } },
        { id: 'second', point: 'URLFilter', implementation: (c: PluginContext) => ({ filter: (u: string) => (c.plugin.id && u.endsWith('.exe') ? null : u) }) },
        { id: 'third', point: 'URLNormalizer', implementation: { normalize: (u: string) => u.trim() } },
      ],
    }],
  });
  assert.equal(describe(ctx), 'active: matched plugin.includes');
  const filters = await ctx.extensions.urlFilters();
  assert.deepEqual(filters.chain, ['app-filters:second', 'app-filters:first']);
  assert.equal(filters.filter('http://x.example/ads/1'), null);
  assert.equal(filters.trace('http://x.example/ads/a.exe').rejectedBy, 'app-filters:second');
  assert.equal((await ctx.extensions.urlNormalizers()).normalize('  http://x.example/ '), 'http://x.example/');
  assert.deepEqual(events, ['start app-filters']);
  await ctx.close();
  assert.deepEqual(events, ['start app-filters', 'stop']);
});

function describe(ctx: ReturnType<typeof fixtureContext>) {
  const a = ctx.plugins.activation.get('app-filters')!;
  return a.active && a.reason === 'included' ? 'active: matched plugin.includes' : JSON.stringify(a);
}

for (const point of ['Parser', 'HtmlParseFilter', 'Signature']) {
  test(`a plugin object may not extend ${point} (it runs in parse workers): NUTCH_PLUGIN_OBJECT_NOT_ALLOWED`, (t) => {
    assert.throws(
      () => fixtureContext(t, { plugins: [{ id: 'inline-thing', extensions: [{ point, implementation: class {} } as never] }] }),
      (err: any) => err.code === 'NUTCH_PLUGIN_OBJECT_NOT_ALLOWED' && err.message.includes(`Plugin object "inline-thing" extends ${point}`) && /parse worker threads/.test(err.message),
    );
  });
}

test('definePlugin objects passed to createContext keep their lifecycle', async (t) => {
  const events: string[] = [];
  const def = definePlugin({ start: () => void events.push('start'), extensions: { F: () => ({ filter: (u: string) => u }) } });
  const ctx = fixtureContext(t, { plugins: [{ id: 'defined', start: def.start, extensions: [{ point: 'URLFilter', implementation: def.extensions.F as never }] }] });
  assert.deepEqual((await ctx.extensions.urlFilters()).chain, ['defined']);
  assert.deepEqual(events, ['start']);
});

test('two contexts in one process with different configs share no instances', async (t) => {
  const rec = resetRecorder();
  const a = fixtureContext(t, { pluginFolders: [kinds], config: { 'plugin.includes': 'fx-class', 'fx.kinds.word': 'alpha' } });
  const b = fixtureContext(t, { pluginFolders: [kinds], config: { 'plugin.includes': 'fx-class', 'fx.kinds.word': 'beta' } });
  const [fa, fb] = await Promise.all([a.extensions.urlFilters(), b.extensions.urlFilters()]);
  assert.equal(fa.filter('http://x/alpha'), null);
  assert.equal(fa.filter('http://x/beta'), 'http://x/beta');
  assert.equal(fb.filter('http://x/beta'), null);
  assert.equal(fb.filter('http://x/alpha'), 'http://x/alpha');
  const ext = a.plugins.getExtensions('URLFilter')[0]!;
  const ia = await a.plugins.getInstance(ext);
  const ib = await b.plugins.getInstance(b.plugins.getExtensions('URLFilter')[0]!);
  assert.notEqual(ia, ib);
  assert.equal(await a.plugins.getInstance(ext), ia, 'cached per crawler');
  assert.deepEqual(rec.events.filter((e) => e.startsWith('construct fx-class')).sort(), ['construct fx-class alpha', 'construct fx-class beta']);
  await a.close();
  assert.equal(fb.filter('http://x/beta'), null, 'closing one crawler leaves the other working');
  assert.equal(b.conf.getString('fx.kinds.word'), 'beta');
});

test('start(ctx) and stop(ctx) get the same per-crawler context, so a shared definition can keep state per crawler', async (t) => {
  const pools = new WeakMap<PluginContext, { crawler: string; open: boolean }>();
  const closed: string[] = [];
  const shared = definePlugin({
    start: (ctx) => void pools.set(ctx, { crawler: ctx.conf.getString('http.agent.name'), open: true }),
    stop: (ctx) => {
      const pool = pools.get(ctx)!;
      pool.open = false;
      closed.push(pool.crawler);
    },
    extensions: { F: () => ({ filter: (u: string) => u }) },
  });
  const plugin = () => ({ id: 'pooled', start: shared.start, stop: shared.stop, extensions: [{ point: 'URLFilter' as const, implementation: shared.extensions.F as never }] });
  const a = fixtureContext(t, { config: { 'http.agent.name': 'crawler-a' }, plugins: [plugin()] });
  const b = fixtureContext(t, { config: { 'http.agent.name': 'crawler-b' }, plugins: [plugin()] });
  await a.extensions.urlFilters();
  await b.extensions.urlFilters();
  await a.close();
  assert.deepEqual(closed, ['crawler-a'], 'closing crawler a stops its own state only');
  await b.close();
  assert.deepEqual(closed, ['crawler-a', 'crawler-b']);
});

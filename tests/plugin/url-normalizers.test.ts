/**
 * URLNormalizer scopes, as Nutch's URLNormalizers: `urlnormalizer.order.<scope>` else
 * `urlnormalizer.order` (listed first, the rest after), `urlnormalizer.scope.<scope>` restricts the
 * scope, the chain repeats up to `urlnormalizer.loop.count` while the URL changes; null drops.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureContext, logged, resetRecorder } from '../helpers/context.js';
import { pluginFixture } from '../helpers/temp-dir.js';

const base = { pluginFolders: [pluginFixture('normalizers')] };

test('urlnormalizer.order puts the listed first and the rest after, by id', (t) => {
  const ctx = fixtureContext(t, { ...base, config: { 'plugin.includes': 'fx-norm-.*', 'urlnormalizer.order': ['fx-norm-www', 'org.example.fx.norm.lower'] } });
  assert.deepEqual(ctx.extensions.normalizerChain('default').map((e) => e.id), ['fx-norm-www', 'fx-norm-lower', 'fx-norm-dotslash', 'fx-norm-drop']);
});

test('urlnormalizer.order.<scope> overrides the global order for that scope only; no unknown-property warning', (t) => {
  const ctx = fixtureContext(t, {
    ...base,
    config: { 'plugin.includes': 'fx-norm-.*', 'urlnormalizer.order': ['fx-norm-www'], 'urlnormalizer.order.fetcher': 'fx-norm-drop fx-norm-lower' },
  });
  assert.deepEqual(ctx.extensions.normalizerChain('fetcher').map((e) => e.id), ['fx-norm-drop', 'fx-norm-lower', 'fx-norm-dotslash', 'fx-norm-www']);
  assert.deepEqual(ctx.extensions.normalizerChain('outlink').map((e) => e.id), ['fx-norm-www', 'fx-norm-dotslash', 'fx-norm-drop', 'fx-norm-lower']);
  assert.deepEqual(logged(ctx).filter((m) => /Unknown property/.test(m)), []);
  assert.deepEqual(ctx.conf.getStrings('urlnormalizer.order.fetcher'), ['fx-norm-drop', 'fx-norm-lower']);
});

test('urlnormalizer.scope.<scope> restricts the scope to the listed normalizers', async (t) => {
  const rec = resetRecorder();
  const ctx = fixtureContext(t, { ...base, config: { 'plugin.includes': 'fx-norm-.*', 'urlnormalizer.order': [], 'urlnormalizer.scope.inject': ['fx-norm-lower', 'org.example.fx.norm.www'] } });
  const inject = await ctx.extensions.urlNormalizers('inject');
  assert.deepEqual(inject.chain, ['fx-norm-lower', 'fx-norm-www']);
  assert.equal(inject.normalize('HTTP://WWW.Example.com/DROP/./x'), 'http://example.com/drop/./x');
  assert.ok(rec.events.includes('fx-norm-lower inject'), 'each normaliser is told its scope');
  const typo = fixtureContext(t, { ...base, config: { 'plugin.includes': 'fx-norm-lower', 'urlnormalizer.order': [], 'urlnormalizer.scope.inject': ['fx-norm-lower', 'fx-norm-www'] } });
  assert.deepEqual(typo.extensions.normalizerChain('inject').map((e) => e.id), ['fx-norm-lower']);
  assert.ok(logged(typo).some((m) => m.startsWith('urlnormalizer.scope.inject names "fx-norm-www", which is not an active URLNormalizer extension (it belongs to plugin fx-norm-www, inactive: not matched by plugin.includes)')));
  const other = await ctx.extensions.urlNormalizers('crawldb');
  assert.equal(other.chain.length, 4);
});

test('null from any normaliser drops the URL; trace names it', async (t) => {
  const ctx = fixtureContext(t, { ...base, config: { 'plugin.includes': 'fx-norm-.*', 'urlnormalizer.order': ['fx-norm-lower', 'fx-norm-drop'] } });
  const n = await ctx.extensions.urlNormalizers('default');
  assert.equal(n.normalize('http://x.example/Drop'), null);
  assert.deepEqual(n.trace('http://x.example/DROP'), { result: null, changedBy: ['fx-norm-lower'], droppedBy: 'fx-norm-drop' });
});

test('urlnormalizer.loop.count repeats the chain while the URL changes', async (t) => {
  const url = 'http://x.example/./././a';
  const once = fixtureContext(t, { ...base, config: { 'plugin.includes': 'fx-norm-dotslash' } });
  assert.equal((await once.extensions.urlNormalizers()).normalize(url), 'http://x.example/././a', 'default loop.count 1: one pass');
  const thrice = fixtureContext(t, { ...base, config: { 'plugin.includes': 'fx-norm-dotslash', 'urlnormalizer.loop.count': 3 } });
  assert.equal((await thrice.extensions.urlNormalizers()).normalize(url), 'http://x.example/a');
  const many = fixtureContext(t, { ...base, defines: { 'plugin.includes': 'fx-norm-dotslash', 'urlnormalizer.loop.count': '10' } });
  assert.equal((await many.extensions.urlNormalizers()).normalize(url), 'http://x.example/a', 'stops when nothing changes');
  assert.throws(() => fixtureContext(t, { ...base, config: { 'urlnormalizer.loop.count': 0 } }), (err: any) => err.code === 'NUTCH_CONFIG_INVALID_VALUE' && /urlnormalizer\.loop\.count/.test(err.message) && /below the minimum 1/.test(err.message));
});

test('a normaliser that throws drops the URL and the error is logged with plugin, point and URL', async (t) => {
  const ctx = fixtureContext(t, {
    config: { 'urlnormalizer.order': [] },
    plugins: [{ id: 'fx-throws', extensions: [{ point: 'URLNormalizer', implementation: { normalize: () => { throw new Error('kaput'); } } }] }],
  });
  const n = await ctx.extensions.urlNormalizers();
  assert.equal(n.normalize('http://x.example/'), null);
  const rec = ctx.log.records.find((r) => r.fields.code === 'NUTCH_EXTENSION_FAILED')!;
  assert.match(rec.msg, /URLNormalizer fx-throws threw on http:\/\/x\.example\/: kaput/);
  assert.equal(rec.fields.plugin, 'fx-throws');
  assert.equal(rec.fields.url, 'http://x.example/');
});

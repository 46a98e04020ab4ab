/**
 * Deterministic order (DESIGN §3): order lists take extension ids or aliases (Nutch class names), as an
 * array or Nutch's whitespace-separated string; a name that is not an active extension is warned about
 * with the reason; *.class properties select FetchSchedule / Signature by id or Nutch class name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fixtureContext, logged } from '../helpers/context.js';
import { pluginFixture, tempDir, writeFile } from '../helpers/temp-dir.js';

const folders = [pluginFixture('aliases'), pluginFixture('matching')];

test('without urlfilter.order every active URLFilter runs, sorted by id', (t) => {
  const ctx = fixtureContext(t, { pluginFolders: folders, config: { 'plugin.includes': 'fx-alias-.*|fx-urlfilter-regex' } });
  assert.deepEqual(ctx.extensions.filterChain().map((e) => e.id), ['fx-alias-a', 'fx-alias-b', 'fx-urlfilter-regex']);
});

test('urlfilter.order as Nutch class names in a whitespace-separated string: only the listed run, in order', async (t) => {
  const ctx = fixtureContext(t, {
    pluginFolders: folders,
    config: { 'plugin.includes': 'fx-alias-.*|fx-urlfilter-regex', 'urlfilter.order': 'org.example.urlfilter.BURLFilter   org.example.urlfilter.AURLFilter' },
  });
  const filters = await ctx.extensions.urlFilters();
  assert.deepEqual(filters.chain, ['fx-alias-b', 'fx-alias-a']);
  assert.equal(filters.trace('http://x/alias-a/alias-b').rejectedBy, 'fx-alias-b', 'the first in order rejects first');
  assert.equal(filters.filter('http://x/fx-urlfilter-regex/'), 'http://x/fx-urlfilter-regex/', 'unlisted filters do not run');
});

test('an order list naming an inactive extension warns, saying why, and is otherwise ignored', (t) => {
  const ctx = fixtureContext(t, {
    pluginFolders: folders,
    config: { 'plugin.includes': 'fx-alias-a', 'urlfilter.order': ['fx-urlfilter-regex2', 'fx-alias-a', 'no-such-filter'] },
  });
  assert.deepEqual(ctx.extensions.filterChain().map((e) => e.id), ['fx-alias-a']);
  const warnings = logged(ctx).join('\n');
  assert.match(warnings, /urlfilter\.order names "fx-urlfilter-regex2", which is not an active URLFilter extension \(it belongs to plugin fx-urlfilter-regex2, inactive: not matched by plugin\.includes\); ignored\./);
  assert.match(warnings, /urlfilter\.order names "no-such-filter", .*\(no discovered plugin declares it\)/);
  ctx.extensions.filterChain();
  assert.equal(logged(ctx).filter((m) => m.includes('no-such-filter')).length, 1, 'warned once');
});

test('the order list from nutch-site.json applies (site layer)', (t) => {
  const dir = tempDir(t);
  writeFile(join(dir, 'nutch-site.json'), { 'plugin.includes': 'fx-alias-.*', 'urlfilter.order': 'fx-alias-b fx-alias-a' });
  const ctx = fixtureContext(t, { pluginFolders: folders, env: { NUTCH_CONF_DIR: dir } });
  assert.deepEqual(ctx.extensions.effectiveChains().URLFilter, ['fx-alias-b', 'fx-alias-a']);
});

test('db.fetch.schedule.class / db.signature.class accept Nutch class names and extension ids', async (t) => {
  const byClass = fixtureContext(t, { pluginFolders: folders, config: { 'db.fetch.schedule.class': 'org.apache.nutch.crawl.AdaptiveFetchSchedule' } });
  assert.equal((await byClass.extensions.fetchSchedule() as unknown as { name(): string }).name(), 'adaptive');
  assert.deepEqual(byClass.extensions.effectiveChains().FetchSchedule, ['fx-schedules:adaptive']);
  assert.deepEqual(byClass.extensions.effectiveChains().Signature, ['fx-schedules:md5'], 'the default org.apache.nutch.crawl.MD5Signature alias');
  const byId = fixtureContext(t, { pluginFolders: folders, defines: { 'db.fetch.schedule.class': 'fx-schedules:default' } });
  assert.equal((await byId.extensions.fetchSchedule() as unknown as { name(): string }).name(), 'default');
});

test('a *.class naming nothing active is an error naming the property and the active choices', async (t) => {
  const ctx = fixtureContext(t, { pluginFolders: folders, config: { 'db.fetch.schedule.class': 'org.example.Nope' } });
  await assert.rejects(ctx.extensions.fetchSchedule(), (err: any) =>
    err.code === 'NUTCH_EXTENSION_NOT_FOUND' && /db\.fetch\.schedule\.class = "org\.example\.Nope" matches no active FetchSchedule extension/.test(err.message) &&
    /Active: fx-schedules:default, fx-schedules:adaptive|Active: fx-schedules:adaptive, fx-schedules:default/.test(err.message));
});

test('-filterName style selection of one extension by alias, and a clear error for an unknown one', async (t) => {
  const ctx = fixtureContext(t, { pluginFolders: folders, config: { 'plugin.includes': 'fx-alias-.*' } });
  assert.deepEqual((await ctx.extensions.urlFilters('org.example.urlfilter.AURLFilter')).chain, ['fx-alias-a']);
  assert.deepEqual((await ctx.extensions.urlFilters('fx-alias-b:filter')).chain, ['fx-alias-b'], '<plugin>:<name> is an alias');
  await assert.rejects(ctx.extensions.urlFilters('fx-urlfilter-regex'), (err: any) =>
    err.code === 'NUTCH_EXTENSION_NOT_FOUND' && /No active URLFilter extension "fx-urlfilter-regex" \(it belongs to plugin fx-urlfilter-regex, inactive: not matched by plugin\.includes\)/.test(err.message));
});

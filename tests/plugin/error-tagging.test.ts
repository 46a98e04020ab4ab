/** DESIGN §3: every error thrown by a plugin is re-thrown or recorded tagged with plugin id, extension point and URL. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fixtureContext } from '../helpers/context.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

const tagged = (point: string, plugin: string, url: string) => (err: any) => {
  assert.equal(err.code, 'NUTCH_EXTENSION_FAILED');
  assert.deepEqual([err.details.plugin, err.details.point, err.details.url], [plugin, point, url]);
  assert.match(err.message, new RegExp(`^${point} .* \\(plugin ${plugin}\\) failed on ${url.replace(/[/.?]/g, '\\$&')}: kaput$`));
  assert.equal(err.cause.message, 'kaput');
  return true;
};

test('IndexingFilter and ScoringFilter errors are re-thrown tagged', async (t) => {
  const ctx = fixtureContext(t, {
    plugins: [
      { id: 'bad-indexer', extensions: [{ point: 'IndexingFilter', implementation: { filter: () => { throw new Error('kaput'); } } }] },
      { id: 'bad-scorer', extensions: [{ point: 'ScoringFilter', implementation: { initialScore: () => { throw new Error('kaput'); } } }] },
    ],
  });
  const indexing = await ctx.extensions.indexingFilters();
  await assert.rejects(indexing.filter({ fields: {} } as never, { url: 'http://x.example/doc', parse: {} as never, dbDatum: null, fetchDatum: null, inlinks: null }), tagged('IndexingFilter', 'bad-indexer', 'http://x.example/doc'));
  const scoring = await ctx.extensions.scoringFilters();
  assert.throws(() => scoring.initialScore('http://x.example/new', {} as never), tagged('ScoringFilter', 'bad-scorer', 'http://x.example/new'));
});

test('HtmlParseFilter errors are re-thrown tagged (folder plugin: the point needs a module path)', async (t) => {
  const dir = tempDir(t);
  writeFile(join(dir, 'bad-hpf', 'plugin.json'), { id: 'bad-hpf', main: 'index.js', extensions: [{ id: 'f', point: 'HtmlParseFilter', implementation: 'F' }] });
  writeFile(join(dir, 'bad-hpf', 'index.js'), "export class F { filter() { throw new Error('kaput'); } }\n");
  const ctx = fixtureContext(t, { pluginFolders: [dir], config: { 'plugin.includes': 'bad-hpf' } });
  const filters = await ctx.extensions.htmlParseFilters();
  await assert.rejects(filters.filter({ url: 'http://x.example/page' } as never, {} as never, {} as never, null), tagged('HtmlParseFilter', 'bad-hpf', 'http://x.example/page'));
});

test('URLFilter errors are recorded (logged with plugin, point, URL) and the URL rejected', async (t) => {
  const ctx = fixtureContext(t, { plugins: [{ id: 'bad-filter', extensions: [{ point: 'URLFilter', implementation: { filter: () => { throw new Error('kaput'); } } }] }] });
  const filters = await ctx.extensions.urlFilters();
  assert.equal(filters.filter('http://x.example/'), null);
  const rec = ctx.log.records.find((r) => r.fields.code === 'NUTCH_EXTENSION_FAILED')!;
  assert.deepEqual([rec.fields.plugin, rec.fields.point, rec.fields.url], ['bad-filter', 'URLFilter', 'http://x.example/']);
});

test('a constructor or factory that throws: NUTCH_EXTENSION_FAILED naming plugin and extension; NutchErrors keep their code', async (t) => {
  const ctx = fixtureContext(t, {
    plugins: [
      { id: 'bad-ctor', extensions: [{ point: 'URLFilter', implementation: class { constructor() { throw new Error('model file missing'); } filter(u: string) { return u; } } }] },
      { id: 'bad-factory', extensions: [{ point: 'URLNormalizer', implementation: async () => { throw Object.assign(new Error('rules.txt not found'), { code: 'NUTCH_CONFIG_FILE_NOT_FOUND' }); } }] },
    ],
  });
  await assert.rejects(ctx.extensions.urlFilters(), (err: any) =>
    err.code === 'NUTCH_EXTENSION_FAILED' && err.details.plugin === 'bad-ctor' &&
    err.message === 'Plugin bad-ctor: creating extension bad-ctor (URLFilter) from export "urlfilter-0" failed: model file missing');
  await assert.rejects(ctx.extensions.urlNormalizers(), (err: any) => err.code === 'NUTCH_CONFIG_FILE_NOT_FOUND' && err.message === 'rules.txt not found');
});

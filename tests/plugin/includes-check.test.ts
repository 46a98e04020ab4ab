/** plugin.includes checked at start: unmatched alternatives warned once, Nutch plugins nutch-ts lacks replaced or explained; plugin.includes.add. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { includesAlternatives } from '../../core/plugin/includes-alternatives.js';
import { describeActivation } from '../../core/plugin/activation.js';
import { ExtensionPoints } from '../../core/extension-points/extension-point.js';
import { fixtureContext, logged } from '../helpers/context.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

const NUTCH_INCLUDES = 'protocol-http|urlfilter-(regex|validator)|parse-(html|tika)|index-(basic|anchor)|indexer-solr|scoring-opic|urlnormalizer-(pass|regex|basic)';

test('the alternatives of a plugin.includes regex, groups expanded', () => {
  assert.deepEqual(includesAlternatives(NUTCH_INCLUDES), [
    'protocol-http', 'urlfilter-regex', 'urlfilter-validator', 'parse-html', 'parse-tika', 'index-basic', 'index-anchor',
    'indexer-solr', 'scoring-opic', 'urlnormalizer-pass', 'urlnormalizer-regex', 'urlnormalizer-basic',
  ]);
  assert.deepEqual(includesAlternatives('a-(b|c(d|e))|(?:x|y)z|lib-(foo)?|q[|]r|urlfilter-.*'), ['a-b', 'a-cd', 'a-ce', 'xz', 'yz', 'lib-(foo)?', 'q[|]r', 'urlfilter-.*']);
});

test("Nutch's default plugin.includes: every alternative is a nutch-ts plugin, so no warning and no stand-in", (t) => {
  const ctx = fixtureContext(t, { includeBuiltins: true, config: { 'plugin.includes': NUTCH_INCLUDES } });
  const warnings = logged(ctx).filter((m) => m.startsWith('plugin.includes'));
  assert.deepEqual(warnings, []);
  for (const id of ['parse-tika', 'parse-html', 'indexer-solr']) assert.equal(describeActivation(ctx.plugins.activation.get(id)!), 'active: matched plugin.includes');
  assert.equal(ctx.plugins.isActive('indexer-sqlite'), false, 'no stand-in');
  assert.ok(ctx.plugins.findExtension(ExtensionPoints.IndexWriter.id, 'org.apache.nutch.indexwriter.solr.SolrIndexWriter'));
});

test('a Nutch plugin with a stand-in (protocol-selenium): warned once, the stand-in activated', (t) => {
  const ctx = fixtureContext(t, { includeBuiltins: true, config: { 'plugin.includes': 'protocol-selenium|parse-html' } });
  const warnings = logged(ctx).filter((m) => m.startsWith('plugin.includes'));
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0]!, /^plugin\.includes \(set by createNutch\(\) config\): "protocol-selenium" matches no plugin\. It is a plugin of Apache Nutch that nutch-ts does not have: protocol-playwright renders pages in headless Chromium.*Activated in its place: protocol-playwright\./);
  assert.equal(describeActivation(ctx.plugins.activation.get('protocol-playwright')!), "active: in place of Nutch's protocol-selenium (named by plugin.includes)");
  assert.equal(ctx.plugins.isActive('protocol-http'), false);
});

test('a typo names the closest ids; lib-* and protocol-httpclient get their advice; plugin.excludes still wins over a stand-in', (t) => {
  const ctx = fixtureContext(t, {
    includeBuiltins: true,
    config: { 'plugin.includes': 'protocol-httpclient|urlfilter-regx|lib-(htmlunit|selenium)|parse-html', 'plugin.excludes': 'protocol-http' },
  });
  const warnings = logged(ctx).filter((m) => m.startsWith('plugin.includes'));
  assert.equal(warnings.length, 4, warnings.join('\n'));
  assert.match(warnings[0]!, /"protocol-httpclient" matches no plugin\. .*protocol-http fetches HTTP and HTTPS in its place\. Activated in its place: protocol-http\./);
  assert.match(warnings[1]!, /"urlfilter-regx" matches no plugin\. Closest plugin ids: urlfilter-regex/);
  assert.match(warnings[2]!, /"lib-htmlunit" matches no plugin\. .*not needed: libraries are npm dependencies/);
  assert.match(warnings[3]!, /"lib-selenium"/);
  assert.equal(ctx.plugins.isActive('protocol-http'), false, 'excluded');
});

test('a plugin later published under a Nutch id (protocol-htmlunit) is simply used: no warning, no stand-in', (t) => {
  const folder = tempDir(t);
  writeFile(join(folder, 'protocol-htmlunit', 'plugin.json'), {
    id: 'protocol-htmlunit', name: 'htmlunit', version: '1.0.0', provider: 'test', main: 'index.js',
    extensions: [{ id: 'protocol-htmlunit', point: 'Protocol', implementation: 'Http', aliases: ['org.apache.nutch.protocol.htmlunit.Http'], parameters: { protocolName: 'http' } }],
  });
  writeFile(join(folder, 'protocol-htmlunit', 'index.js'), 'export class Http { async getProtocolOutput() { return null; } async getRobotRules() { return null; } }\n');
  const ctx = fixtureContext(t, { includeBuiltins: true, pluginFolders: [folder], config: { 'plugin.includes': 'protocol-htmlunit|parse-html' } });
  assert.deepEqual(logged(ctx).filter((m) => m.startsWith('plugin.includes')), []);
  assert.equal(ctx.plugins.isActive('protocol-htmlunit'), true);
  assert.equal(ctx.plugins.isActive('protocol-http'), false, 'no stand-in when the plugin exists');
});

test('plugin.includes.add enables one more plugin without copying the default list', (t) => {
  const ctx = fixtureContext(t, { includeBuiltins: true, config: { 'plugin.includes.add': ['index-more', 'urlfilter-(prefix|suffix)'] } });
  for (const id of ['index-more', 'urlfilter-prefix', 'urlfilter-suffix', 'indexer-sqlite', 'parse-html']) assert.equal(ctx.plugins.isActive(id), true, id);
  assert.deepEqual(logged(ctx).filter((m) => m.startsWith('plugin.includes')), []);
  const typo = fixtureContext(t, { includeBuiltins: true, config: { 'plugin.includes.add': 'index-mroe' } });
  assert.match(logged(typo).join('\n'), /"index-mroe" matches no plugin\. Closest plugin ids: index-more/);
});

test('an order list naming a Nutch class nutch-ts lacks says which Nutch plugin it is and what to use', (t) => {
  const ctx = fixtureContext(t, {
    includeBuiltins: true,
    config: { 'indexingfilter.order': 'org.apache.nutch.indexer.jexl.JexlIndexingFilter org.apache.nutch.indexer.basic.BasicIndexingFilter' },
  });
  assert.match(ctx.plugins.whyUnavailable('org.apache.nutch.indexer.jexl.JexlIndexingFilter'), /Nutch's index-jexl-filter, which nutch-ts does not have: write an IndexingFilter plugin/);
});

/** Nutch's index-writers.xml read as it is: writers, parameters, mapping; Nutch's writer selection; errors with file and line. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseIndexWritersXml, indexWritersToJson } from '../../core/crawl/index/index-writers-xml.js';
import { readIndexWritersConfig } from '../../core/crawl/index/index-writers-config.js';
import { resolveIndexWriters } from '../../core/crawl/index/resolve-index-writers.js';
import { fixtureContext } from '../helpers/context.js';
import { fixturesDir, tempDir, writeFile } from '../helpers/temp-dir.js';

const NUTCH_XML = join(fixturesDir, 'nutch-conf', 'index-writers.xml');

test('index-writers.xml: writers with class, parameters and the copy/rename/remove mapping', () => {
  const config = parseIndexWritersXml(readFileSync(NUTCH_XML, 'utf8'), NUTCH_XML);
  assert.deepEqual(config.writers.map((w) => [w.id, w.extension, w.where]), [
    ['indexer_solr_1', 'org.apache.nutch.indexwriter.solr.SolrIndexWriter', `${NUTCH_XML}:6`],
    ['indexer_rabbit_1', 'org.apache.nutch.indexwriter.rabbit.RabbitIndexWriter', `${NUTCH_XML}:31`],
    ['indexer_dummy_1', 'org.apache.nutch.indexwriter.dummy.DummyIndexWriter', `${NUTCH_XML}:42`],
    ['indexer_elastic_1', 'org.apache.nutch.indexwriter.elastic.ElasticIndexWriter', `${NUTCH_XML}:53`],
    ['indexer_csv_1', 'org.apache.nutch.indexwriter.csv.CSVIndexWriter', `${NUTCH_XML}:65`],
  ]);
  const solr = config.writers[0]!;
  assert.equal(solr.parameters.url, 'http://localhost:8983/solr/nutch');
  assert.equal(solr.parameters.collection, '');
  assert.deepEqual([...solr.mapping.copy], [['title', ['title_copy', 'all_text']]]);
  assert.deepEqual([...solr.mapping.rename], [['metatag.description', 'description'], ['metatag.keywords', 'keywords']]);
  assert.deepEqual(solr.mapping.remove, ['segment']);
  assert.deepEqual((indexWritersToJson(config) as { writers: { mapping: unknown }[] }).writers[0]!.mapping, {
    copy: [{ source: 'title', dest: ['title_copy', 'all_text'] }],
    rename: [{ source: 'metatag.description', dest: 'description' }, { source: 'metatag.keywords', dest: 'keywords' }],
    remove: [{ source: 'segment' }],
  });
});

test('a conf directory holding index-writers.xml and no index-writers.json: the XML is used, as Nutch would', (t) => {
  const dir = tempDir(t);
  copyFileSync(NUTCH_XML, join(dir, 'index-writers.xml'));
  const ctx = fixtureContext(t, { includeBuiltins: true, cwd: dir, config: { 'plugin.includes': 'protocol-http|parse-html|indexer-(csv|sqlite)' } });
  const config = readIndexWritersConfig(ctx.conf);
  assert.equal(config.file, join(dir, 'index-writers.xml'));
  const resolved = resolveIndexWriters(ctx, config);
  assert.deepEqual(resolved.writers.map((w) => [w.config.id, w.extension.id]), [['indexer_csv_1', 'indexer-csv']], 'only the writers of active plugins run; Solr was not named by plugin.includes');
  assert.equal(resolved.skipped.length, 4);
});

test('indexer-solr named by plugin.includes: its writer runs on indexer-solr, with its parameters and mapping', (t) => {
  const dir = tempDir(t);
  copyFileSync(NUTCH_XML, join(dir, 'index-writers.xml'));
  const ctx = fixtureContext(t, { includeBuiltins: true, cwd: dir, config: { 'plugin.includes': 'protocol-http|parse-html|indexer-solr' } });
  const resolved = resolveIndexWriters(ctx);
  assert.deepEqual(resolved.writers.map((w) => [w.config.id, w.extension.id, w.parameters.url, w.parameters.commitSize]), [['indexer_solr_1', 'indexer-solr', 'http://localhost:8983/solr/nutch', '1000']]);
  assert.deepEqual(resolved.writers[0]!.config.mapping.remove, ['segment']);
});

for (const [why, xml, line, reason] of [
  ['a writer without class', '<writers>\n  <writer id="a"/>\n</writers>', 2, /<writer id="a"> needs a class attribute/],
  ['a param without name', '<writers>\n<writer id="a" class="indexer-csv">\n<parameters>\n<param value="x"/>\n</parameters></writer></writers>', 4, /<param> needs a name attribute/],
  ['a rename to two fields', '<writers><writer id="a" class="x">\n<mapping><rename>\n<field source="a" dest="b,c"/></rename></mapping></writer></writers>', 3, /needs exactly one dest field/],
  ['an unknown section', '<writers>\n<writer id="a" class="x"><params/></writer></writers>', 2, /unexpected <params> inside <writer>/],
  ['a duplicate id', '<writers>\n<writer id="a" class="x"/>\n<writer id="a" class="y"/></writers>', 3, /duplicate writer id "a"/],
] as const) {
  test(`index-writers.xml: ${why} is NUTCH_INDEX_WRITERS_INVALID with file and line`, () => {
    assert.throws(() => parseIndexWritersXml(xml, '/c/index-writers.xml'), (e: { code: string; message: string }) => {
      assert.equal(e.code, 'NUTCH_INDEX_WRITERS_INVALID');
      assert.ok(e.message.startsWith(`/c/index-writers.xml:${line}: `), e.message);
      assert.match(e.message, reason);
      return true;
    });
  });
}

test('malformed index-writers.xml is NUTCH_CONFIG_INVALID_XML with file and line', (t) => {
  const dir = tempDir(t);
  writeFile(join(dir, 'index-writers.xml'), '<writers>\n<writer id="a" class="x">\n</writers>');
  const ctx = fixtureContext(t, { cwd: dir });
  assert.throws(() => readIndexWritersConfig(ctx.conf), (e: { code: string; message: string }) => e.code === 'NUTCH_CONFIG_INVALID_XML' && /index-writers\.xml:3: malformed XML: closing tag <\/writers> does not match <writer> opened on line 2/.test(e.message));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseIndexWritersConfig, readIndexWritersConfig } from '../../core/crawl/index/index-writers-config.js';
import { mapDocument } from '../../core/crawl/index/mapped-index-writer.js';
import { openIndexWriters } from '../../core/crawl/index/open-index-writers.js';
import { index } from '../../core/crawl/index/index.js';
import { createDocument } from '../../core/model/nutch-document.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { buildCrawl, indexContext } from './crawl-fixture.js';

const bad: [string, unknown, RegExp][] = [
  ['not an object', [], /\/ must be object/],
  ['no writers', {}, /\/ must have required property 'writers'/],
  ['writer without id', { writers: [{ extension: 'indexer-sqlite' }] }, /\/writers\/0 must have required property 'id'/],
  ['writer without extension', { writers: [{ id: 'w' }] }, /\/writers\/0 writer "w" needs "extension"/],
  ['unknown field', { writers: [{ id: 'w', extension: 'x', bogus: 1 }] }, /\/writers\/0\/bogus is not a known field/],
  ['parameter of the wrong type', { writers: [{ id: 'w', extension: 'x', parameters: { a: [1] } }] }, /\/writers\/0\/parameters\/a/],
  ['copy without dest', { writers: [{ id: 'w', extension: 'x', mapping: { copy: [{ source: 'a' }] } }] }, /\/writers\/0\/mapping\/copy\/0 needs "dest"/],
  ['rename to two fields', { writers: [{ id: 'w', extension: 'x', mapping: { rename: [{ source: 'a', dest: 'b,c' }] } }] }, /\/writers\/0\/mapping\/rename\/0 needs exactly one/],
  ['duplicate writer ids', { writers: [{ id: 'w', extension: 'x' }, { id: 'w', extension: 'y' }] }, /\/writers\/1\/id duplicate writer id "w"/],
];

for (const [name, raw, message] of bad) {
  test(`index-writers.json: ${name} is an error naming the file and the JSON pointer`, () => {
    assert.throws(() => parseIndexWritersConfig(raw, '/conf/index-writers.json'), (e: { code: string; message: string }) => {
      assert.equal(e.code, 'NUTCH_INDEX_WRITERS_INVALID');
      assert.match(e.message, /^\/conf\/index-writers\.json: /);
      assert.match(e.message, message);
      return true;
    });
  });
}

test('index-writers.json: invalid JSON names file:line:column', (t) => {
  const dir = tempDir(t);
  writeFile(join(dir, 'index-writers.json'), '{\n  "writers": [\n    { "id": "a", }\n  ]\n}\n');
  const ctx = indexContext(t, {});
  writeFile(join(ctx.confDir, 'index-writers.json'), '{\n  "writers": [\n    { "id": "a", }\n  ]\n}\n');
  assert.throws(() => readIndexWritersConfig(ctx.conf), (e: { code: string; message: string }) => e.code === 'NUTCH_INDEX_WRITERS_INVALID' && /index-writers\.json:3:\d+/.test(e.message));
});

test('the shipped conf/index-writers.json runs indexer-sqlite', () => {
  const shipped = parseIndexWritersConfig(JSON.parse(readFileSync(new URL('../../conf/index-writers.json', import.meta.url), 'utf8')), 'conf/index-writers.json');
  assert.deepEqual(shipped.writers.map((w) => [w.id, w.extension]), [['indexer_sqlite_1', 'indexer-sqlite']]);
});

test('a writer naming an extension no plugin has (a typo): error with pointer and the IndexWriter extensions', async (t) => {
  const ctx = indexContext(t, { writers: [{ id: 'w', extension: 'indexer-sqlit' }] });
  await assert.rejects(openIndexWriters(ctx, { crawlDir: tempDir(t) }), (e: { code: string; message: string }) => {
    assert.equal(e.code, 'NUTCH_INDEX_WRITERS_INVALID');
    assert.match(e.message, /index-writers\.json: \/writers\/0\/extension "indexer-sqlit" \(writer w\) is not an IndexWriter extension of any plugin/);
    assert.match(e.message, /IndexWriter extensions: .*indexer-sqlite/);
    return true;
  });
});

test("as Nutch's IndexWriters: a writer whose plugin is not active is skipped; with none left, an error listing why", async (t) => {
  const out = tempDir(t);
  const ctx = indexContext(t, { writers: [
    { id: 'solr_1', class: 'org.apache.nutch.indexwriter.solr.SolrIndexWriter' },
    { id: 'es_1', class: 'org.apache.nutch.indexwriter.elastic.ElasticIndexWriter' },
    { id: 'csv_1', class: 'org.apache.nutch.indexwriter.csv.CSVIndexWriter', parameters: { outpath: out } },
  ] });
  const writers = await openIndexWriters(ctx, { crawlDir: tempDir(t) });
  assert.deepEqual(writers.chain, ['csv_1']);
  await writers.close();
  const none = indexContext(t, { writers: [{ id: 'solr_1', class: 'org.apache.nutch.indexwriter.solr.SolrIndexWriter' }, { id: 'es_1', extension: 'indexer-elastic' }] });
  await assert.rejects(openIndexWriters(none, { crawlDir: tempDir(t) }), (e: { code: string; message: string }) => {
    assert.equal(e.code, 'NUTCH_INDEX_WRITERS_INVALID');
    assert.match(e.message, /index-writers\.json: none of its index writers can run: writer solr_1 \(.*\/writers\/0\): plugin indexer-solr is not active/);
    assert.match(e.message, /writer es_1 \(.*\/writers\/1\): plugin indexer-elastic is not active/);
    assert.match(e.message, /indexer-sqlite for the embedded index/);
    return true;
  });
});

test('writers are matched by Nutch class name too, and parameters become strings', async (t) => {
  const out = tempDir(t);
  const ctx = indexContext(t, { writers: [{ id: 'j', class: 'org.apache.nutch.indexwriter.csv.CSVIndexWriter', parameters: { outpath: out, maxfieldlength: 100 } }] });
  const writers = await openIndexWriters(ctx, { crawlDir: tempDir(t) });
  assert.deepEqual(writers.chain, ['j']);
  await writers.close();
});

test('mapping: copy (comma list and array), then rename, then remove; the source document is untouched', () => {
  const cfg = parseIndexWritersConfig({ writers: [{ id: 'w', extension: 'x', mapping: {
    copy: [{ source: 'title', dest: 'title,search' }, { source: 'content', dest: ['search'] }, { source: 'missing', dest: 'x' }],
    rename: [{ source: 'metatag.description', dest: 'description' }],
    remove: [{ source: 'segment' }, 'digest'],
  } }] }, 'f');
  const doc = createDocument();
  doc.fields = { title: ['T'], content: ['C'], 'metatag.description': ['D'], segment: ['s'], digest: ['d'] };
  const mapped = mapDocument(doc, cfg.writers[0]!.mapping);
  assert.deepEqual(mapped.fields, { title: ['T'], content: ['C'], search: ['T', 'C'], description: ['D'] });
  assert.deepEqual(Object.keys(doc.fields), ['title', 'content', 'metatag.description', 'segment', 'digest']);
});

test('each writer sees its own mapping: fan-out of one document to two differently mapped writers', async (t) => {
  const dir = tempDir(t);
  const plain = join(dir, 'plain.jsonl');
  const mapped = join(dir, 'mapped.jsonl');
  const ctx = indexContext(t, { writers: [
    { id: 'plain', extension: 'indexer-jsonl', parameters: { path: plain } },
    { id: 'mapped', extension: 'indexer-jsonl', parameters: { path: mapped }, mapping: { rename: [{ source: 'title', dest: 'headline' }], remove: ['content'] } },
  ] }, { 'indexingfilter.order': 'index-basic' });
  const f = await buildCrawl(ctx, join(dir, 'crawl'), [{ url: 'http://m.example/', title: 'Hello', text: 'body' }]);
  await index(ctx, { crawlDb: f.crawlDb, segments: [f.segment] });
  const p = JSON.parse(readFileSync(plain, 'utf8'));
  const m = JSON.parse(readFileSync(mapped, 'utf8'));
  assert.deepEqual([p.fields.title, p.fields.content], [['Hello'], ['body']]);
  assert.deepEqual([m.fields.headline, m.fields.title, m.fields.content], [['Hello'], undefined, undefined]);
});

/**
 * indexer-solr against a local server speaking Solr's JSON update protocol (tests/helpers/solr-server.ts:
 * adds, delete by id, commit, rollback, Solr's error bodies, 401/404/429/503): exact bodies, batching
 * by commitSize, action order, http fan-out and cloud failover, auth, retries, loud failures naming the
 * documents, and `nutch index` driven by Nutch's own index-writers.xml. A live test runs when
 * NUTCH_TEST_SOLR_URL names a real core (http://host:8983/solr/<core>).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SolrIndexWriter } from '../../plugins/indexer-solr/index.js';
import { stripNonCharCodepoints } from '../../plugins/indexer-solr/solr-document.js';
import { createDocument, type FieldValue } from '../../core/model/nutch-document.js';
import { startFakeSolr, type FakeSolrOptions } from '../helpers/solr-server.js';
import { fixturesDir, tempDir, writeFile } from '../helpers/temp-dir.js';
import { runNutch } from '../helpers/cli.js';
import { fixtureContext } from '../helpers/context.js';
import { buildCrawl } from '../index/crawl-fixture.js';

type T = { after(fn: () => unknown): void };

async function solr(t: T, opts: FakeSolrOptions = {}) {
  const s = await startFakeSolr(opts);
  t.after(() => s.close());
  return s;
}

function doc(id: string, fields: Record<string, FieldValue[]> = {}, weight = 1) {
  const d = createDocument();
  d.fields = { id: [id], ...fields };
  d.weight = weight;
  return d;
}

async function writer(parameters: Record<string, string>) {
  const w = new SolrIndexWriter();
  await w.open({ writerId: 'solr_1', parameters: { 'exponential.backoff.millis': '1', ...parameters } });
  return w;
}

const updates = (s: { requests: { path: string; body: string }[] }) => s.requests.map((r) => r.body);

test('indexer-solr: adds as a JSON array, deletes as {"delete":[…]}, then one commit; nothing is visible before it', async (t) => {
  const s = await solr(t);
  const w = await writer({ url: `${s.url}/nutch`, 'weight.field': 'boost' });
  await w.write(doc('http://a.example/', { title: ['A "quoted" title\uFFFF'], content: ['x\uFDD0y'], anchor: ['one\uFFFF', 'two'], tstamp: [new Date(Date.UTC(2026, 0, 2))] }, 2.5));
  await w.delete('http://gone.example/a!b');
  assert.equal(s.requests.length, 1, 'the add run was sent when the delete run began');
  assert.equal(s.committed('nutch').size, 0);
  await w.commit();
  await w.close();
  assert.deepEqual(s.requests.map((r) => [r.path, r.query, r.headers['content-type']]), [
    ['/solr/nutch/update', 'wt=json', 'application/json'],
    ['/solr/nutch/update', 'wt=json', 'application/json'],
    ['/solr/nutch/update', 'wt=json', 'application/json'],
  ], 'close after commit sends no second commit');
  assert.deepEqual(updates(s), [
    '[{"id":"http://a.example/","title":"A \\"quoted\\" title","content":"xy","anchor":["one\uFFFF","two"],"tstamp":"2026-01-02T00:00:00.000Z","boost":2.5}]',
    '{"delete":["http://gone.example/a\\\\!b"]}',
    '{"commit":{}}',
  ]);
  assert.deepEqual([...s.committed('nutch').keys()], ['http://a.example/']);
});

test('indexer-solr: commitSize batches; interleaved adds and deletes keep their order', async (t) => {
  const s = await solr(t);
  const w = await writer({ url: `${s.url}/nutch`, commitSize: '2' });
  for (const id of ['a', 'b', 'c']) await w.write(doc(id));
  await w.delete('a');
  await w.write(doc('a', { title: ['again'] }));
  await w.delete('b');
  await w.commit();
  assert.deepEqual(updates(s), ['[{"id":"a"},{"id":"b"}]', '[{"id":"c"}]', '{"delete":["a"]}', '[{"id":"a","title":"again"}]', '{"delete":["b"]}', '{"commit":{}}']);
  assert.deepEqual(Object.fromEntries(s.committed('nutch')), { a: { id: 'a', title: 'again' }, c: { id: 'c' } });
  assert.deepEqual(w.sent, { added: 4, deleted: 2 });
});

test('indexer-solr: type http sends every batch to every url; type cloud targets <url>/<collection> and fails over to the next node', async (t) => {
  const one = await solr(t);
  const two = await solr(t);
  const http = await writer({ type: 'http', url: `${one.url}/nutch, ${two.url}/nutch` });
  await http.write(doc('x'));
  await http.commit();
  assert.deepEqual(updates(one), ['[{"id":"x"}]', '{"commit":{}}']);
  assert.deepEqual(updates(two), updates(one));

  const cluster = await solr(t, { cores: ['crawl'] });
  const cloud = await writer({ type: 'cloud', url: `http://127.0.0.1:1/solr,${cluster.url}`, collection: 'crawl', 'exponential.backoff.retries': '3' });
  await cloud.write(doc('y'));
  await cloud.commit();
  assert.deepEqual(cluster.requests.map((r) => [r.path, r.body]), [['/solr/crawl/update', '[{"id":"y"}]'], ['/solr/crawl/update', '{"commit":{}}']]);
  assert.ok(cluster.committed('crawl').has('y'));
});

test('indexer-solr: auth=true sends Basic credentials; wrong ones fail with a hint naming the parameters', async (t) => {
  const s = await solr(t, { auth: { username: 'solr', password: 'SolrRocks' } });
  const good = await writer({ url: `${s.url}/nutch`, auth: 'true', username: 'solr', password: 'SolrRocks' });
  await good.write(doc('a'));
  await good.commit();
  assert.ok(s.committed('nutch').has('a'));
  const off = await writer({ url: `${s.url}/nutch`, auth: 'false', username: 'solr', password: 'SolrRocks' });
  await off.write(doc('b'));
  await assert.rejects(off.commit(), (e: { code: string; message: string }) => e.code === 'NUTCH_INDEX_WRITER_FAILED' && /solr_1: .*answered HTTP 401: require authentication \(check "auth", "username" and "password"\); 1 action\(s\) not written: b\./.test(e.message));
});

test('indexer-solr: 503 and 429 are retried with backoff; when retries run out the ids are named', async (t) => {
  for (const status of [503, 429]) {
    const s = await solr(t, { failFirst: { count: 2, status } });
    const w = await writer({ url: `${s.url}/nutch` });
    await w.write(doc('kept'));
    await w.commit();
    assert.equal(s.requests.length, 4, `${status}: two refused, then the add and the commit`);
    assert.ok(s.committed('nutch').has('kept'));
  }
  const down = await solr(t, { failFirst: { count: 100, status: 503 } });
  const w = await writer({ url: `${down.url}/nutch`, 'exponential.backoff.retries': '2' });
  await w.write(doc('lost-1'));
  await w.write(doc('lost-2'));
  await assert.rejects(w.commit(), (e: { message: string; details?: { notWritten?: string[] } }) => /failed after 3 attempts \(HTTP 503: Server is shutting down or overloaded\); 2 action\(s\) not written: lost-1, lost-2\./.test(e.message));
  assert.equal(down.requests.length, 3);
});

for (const [why, parameters, fields, expected] of [
  ['a field the schema lacks', {}, ['id', 'title'], /HTTP 400: ERROR: \[doc=bad\] unknown field 'tstamp'; 1 action\(s\) not written: bad\./],
  ['a core that does not exist', { url: 'CORE:missing' }, undefined, /\/solr\/missing\/update answered HTTP 404: Error 404 Not Found HTTP ERROR 404 Not Found URI: \/solr\/missing\/update \(no such core or collection: check "url" and "collection"\)/],
] as const) {
  test(`indexer-solr: ${why} fails the batch with Solr's message and the ids`, async (t) => {
    const s = await solr(t, { fields: fields as string[] | undefined });
    const url = parameters.url ? parameters.url.replace('CORE:', `${s.url}/`) : `${s.url}/nutch`;
    const w = await writer({ url });
    await w.write(doc('bad', { tstamp: ['2026'] }));
    await assert.rejects(w.commit(), (e: { code: string; message: string }) => e.code === 'NUTCH_INDEX_WRITER_FAILED' && expected.test(e.message));
  });
}

test('indexer-solr: abort rolls back what was sent since the last commit (standalone Solr)', async (t) => {
  const s = await solr(t);
  const w = await writer({ url: `${s.url}/nutch`, commitSize: '1' });
  await w.write(doc('committed'));
  await w.commit();
  await w.write(doc('rolled-back'));
  await w.abort();
  assert.deepEqual(updates(s).slice(-1), ['{"rollback":{}}']);
  await (await writer({ url: `${s.url}/nutch` })).commit();
  assert.deepEqual([...s.committed('nutch').keys()], ['committed']);
});

for (const [why, parameters, expected] of [
  ['an unknown type', { type: 'zookeeper' }, /parameter "type" must be "http" or "cloud", got "zookeeper"/],
  ['a url that is not a URL', { url: 'http://solr host:8983/solr' }, /parameter "url": "http:\/\/solr host:8983\/solr" is not a URL/],
  ['a ZooKeeper address', { url: 'zk://zk1:2181' }, /is not an http\(s\) URL \(ZooKeeper addresses are not supported/],
  ['cloud without a collection', { type: 'cloud', url: 'http://127.0.0.1:8983/solr', collection: '' }, /type "cloud" needs the parameter "collection"/],
  ['a negative commitSize', { commitSize: '-5' }, /parameter "commitSize" must be a non-negative integer, got "-5"/],
  ['auth without a username', { auth: 'true', username: '' }, /auth is true but the parameter "username" is empty/],
] as const) {
  test(`indexer-solr: ${why} is NUTCH_INDEX_WRITERS_INVALID naming the writer`, async () => {
    await assert.rejects(writer(parameters), (e: { code: string; message: string }) => e.code === 'NUTCH_INDEX_WRITERS_INVALID' && /^indexer-solr writer solr_1: /.test(e.message) && expected.test(e.message));
  });
}

test('indexer-solr: title and content lose the code points Solr refuses; other characters stay', () => {
  for (const [input, output] of [
    ['plain', 'plain'],
    ['a\uFFFEb\uFFFFc', 'abc'],
    ['\uFDD0\uFDEFx\uFDF0', 'x\uFDF0'],
    ['lone \uD800 high and \uDC00 low', 'lone  high and  low'],
    ['pair \uD83D\uDE00 kept', 'pair \uD83D\uDE00 kept'],
    ['plane 1 \uD83F\uDFFE gone', 'plane 1  gone'],
  ]) assert.equal(stripNonCharCodepoints(input!), output);
});

test('nutch index with Nutch\'s own index-writers.xml sends the segment to Solr, mapping applied, and commits', async (t) => {
  const s = await solr(t);
  const dir = tempDir(t);
  const xml = readFileSync(join(fixturesDir, 'nutch-conf', 'index-writers.xml'), 'utf8').replace('http://localhost:8983/solr/nutch', `${s.url}/nutch`);
  writeFileSync(join(dir, 'index-writers.xml'), xml);
  writeFile(join(dir, 'nutch-site.json'), JSON.stringify({ 'http.agent.name': 'SolrTest', 'plugin.includes': 'protocol-http|parse-html|index-(basic|anchor)|indexer-solr|urlnormalizer-pass|urlfilter-regex' }));
  const ctx = fixtureContext(t, { includeBuiltins: true, cwd: dir, config: { 'plugin.includes': 'indexer-solr' } });
  const crawl = await buildCrawl(ctx, join(dir, 'crawl'), [
    { url: 'http://a.example/', title: 'Alpha page', text: 'alpha text' },
    { url: 'http://b.example/', title: 'Beta page', text: 'beta text' },
  ]);
  await ctx.close();
  const r = await runNutch(['index', crawl.crawlDb, '-linkdb', crawl.linkDb, crawl.segment], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const docs = s.committed('nutch');
  assert.deepEqual([...docs.keys()].sort(), ['http://a.example/', 'http://b.example/']);
  const a = docs.get('http://a.example/')!;
  assert.equal(a.title, 'Alpha page');
  assert.equal(a.title_copy, 'Alpha page', 'the copy mapping of index-writers.xml');
  assert.equal(a.all_text, 'Alpha page');
  assert.equal('segment' in a, false, 'the remove mapping');
  assert.equal(s.requests.at(-1)!.body, '{"commit":{}}');
});

test('indexer-solr against a real Solr core (NUTCH_TEST_SOLR_URL)', { skip: !process.env.NUTCH_TEST_SOLR_URL && 'set NUTCH_TEST_SOLR_URL=http://host:8983/solr/<core> to run' }, async () => {
  const url = process.env.NUTCH_TEST_SOLR_URL!;
  const id = `nutch-ts-live-${process.pid}-${Date.now()}`;
  const w = await writer({ url, auth: process.env.NUTCH_TEST_SOLR_USER ? 'true' : 'false', username: process.env.NUTCH_TEST_SOLR_USER ?? '', password: process.env.NUTCH_TEST_SOLR_PASSWORD ?? '' });
  await w.write(doc(id, { url: [id], title: ['nutch-ts live test'], content: ['live'] }));
  await w.commit();
  const headers: Record<string, string> = process.env.NUTCH_TEST_SOLR_USER ? { authorization: `Basic ${Buffer.from(`${process.env.NUTCH_TEST_SOLR_USER}:${process.env.NUTCH_TEST_SOLR_PASSWORD ?? ''}`).toString('base64')}` } : {};
  const found = await (await fetch(`${url}/select?q=id:${encodeURIComponent(JSON.stringify(id))}&wt=json`, { headers })).json() as { response: { numFound: number } };
  assert.equal(found.response.numFound, 1);
  await w.delete(id);
  await w.close();
  const gone = await (await fetch(`${url}/select?q=id:${encodeURIComponent(JSON.stringify(id))}&wt=json`, { headers })).json() as { response: { numFound: number } };
  assert.equal(gone.response.numFound, 0);
});

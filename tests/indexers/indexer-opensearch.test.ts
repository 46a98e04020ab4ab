/**
 * indexer-opensearch against a local node stand-in speaking OpenSearch's `_bulk` format
 * (tests/helpers/opensearch-server.ts): exact action/source lines, batching by max.bulk.docs and
 * max.bulk.size, Basic auth, retries of 429/503 requests and of 429 items, loud failures naming the
 * documents, Nutch's parameter names checked, and `nutch crawl -i` sending a crawl to it. A live test
 * runs when NUTCH_TEST_OPENSEARCH_URL names a real node (http(s)://user:password@host:9200/<index>).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { OpenSearchIndexWriter } from '../../plugins/indexer-opensearch/index.js';
import { createDocument, type FieldValue } from '../../core/model/nutch-document.js';
import { startFakeOpenSearch, type FakeOpenSearchOptions } from '../helpers/opensearch-server.js';
import { indexCrawl } from '../helpers/index-crawl.js';
import { tempDir } from '../helpers/temp-dir.js';

type T = { after(fn: () => unknown): void };

async function node(t: T, opts: FakeOpenSearchOptions = {}) {
  const s = await startFakeOpenSearch(opts);
  t.after(() => s.close());
  return s;
}

function doc(id: string, fields: Record<string, FieldValue[]> = {}) {
  const d = createDocument();
  d.fields = { id: [id], ...fields };
  return d;
}

async function writer(port: number, parameters: Record<string, string> = {}) {
  const w = new OpenSearchIndexWriter();
  await w.open({ writerId: 'opensearch_1', parameters: { host: '127.0.0.1', port: String(port), scheme: 'http', 'exponential.backoff.millis': '1', ...parameters } });
  return w;
}

const bulks = (s: { requests: { path: string; body: string }[] }) => s.requests.filter((r) => r.path === '/_bulk').map((r) => r.body);

test('indexer-opensearch: index and delete as _bulk action/source lines; one value a scalar, several an array, dates ISO-8601', async (t) => {
  const s = await node(t, { credentials: 'admin:admin' });
  const w = await writer(s.port);
  await w.write(doc('http://a.example/', { title: ['A "quoted" title'], anchor: ['x', 'y'], tstamp: [new Date(Date.UTC(2026, 0, 2))], boost: [1.5] }));
  await w.delete('http://gone.example/');
  assert.equal(bulks(s).length, 0, 'nothing sent before commit');
  await w.commit();
  await w.close();
  assert.equal(bulks(s).length, 1);
  assert.deepEqual(bulks(s)[0]!.trim().split('\n').map((l) => JSON.parse(l)), [
    { index: { _index: 'nutch', _id: 'http://a.example/' } },
    { id: 'http://a.example/', title: 'A "quoted" title', anchor: ['x', 'y'], tstamp: '2026-01-02T00:00:00.000Z', boost: 1.5 },
    { delete: { _index: 'nutch', _id: 'http://gone.example/' } },
  ]);
  const req = s.requests.find((r) => r.path === '/_bulk')!;
  assert.match(String(req.headers['content-type']), /application\/(x-)?ndjson|application\/json/);
  assert.equal(req.headers.authorization, `Basic ${Buffer.from('admin:admin').toString('base64')}`, "Nutch's default credentials admin/admin");
  assert.deepEqual([...s.indices.get('nutch')!.keys()], ['http://a.example/']);
});

test('indexer-opensearch: max.bulk.docs and max.bulk.size cut the requests; order is kept', async (t) => {
  const s = await node(t);
  const w = await writer(s.port, { 'max.bulk.docs': '2', index: 'web' });
  for (const n of [1, 2, 3, 4, 5]) await w.write(doc(`http://a.example/${n}`));
  assert.equal(bulks(s).length, 2, 'a request every 2 actions');
  await w.close();
  assert.equal(bulks(s).length, 3, 'close sends the rest');
  assert.deepEqual([...s.indices.get('web')!.keys()], [1, 2, 3, 4, 5].map((n) => `http://a.example/${n}`));

  const sized = await node(t);
  const w2 = await writer(sized.port, { 'max.bulk.size': '200' });
  for (const n of [1, 2, 3]) await w2.write(doc(`http://b.example/${n}`, { content: ['x'.repeat(80)] }));
  await w2.close();
  assert.equal(bulks(sized).length, 3, 'each document alone fills half of 200 bytes');
});

test('indexer-opensearch: 503 and 429 answers and 429 items are retried with backoff; a 400 item or exhausted retries name the ids', async (t) => {
  const s = await node(t, { requestStatus: (n) => (n === 1 ? 503 : n === 2 ? 429 : undefined), itemStatus: (id, n) => (id.endsWith('/2') && n === 3 ? 429 : undefined) });
  const w = await writer(s.port);
  await w.write(doc('http://a.example/1'));
  await w.write(doc('http://a.example/2'));
  await w.commit();
  await w.close();
  assert.equal(bulks(s).length, 4, '503, 429, one item rejected, then the item alone');
  assert.equal(bulks(s)[3]!.trim().split('\n').length, 2, 'only the rejected item is re-sent');
  assert.deepEqual([...s.indices.get('nutch')!.keys()].sort(), ['http://a.example/1', 'http://a.example/2']);

  const bad = await node(t, { itemStatus: (id) => (id.endsWith('/bad') ? 400 : undefined) });
  const w2 = await writer(bad.port);
  await w2.write(doc('http://a.example/ok'));
  await w2.write(doc('http://a.example/bad'));
  await assert.rejects(w2.commit(), (err: Error & { code?: string }) => err.code === 'NUTCH_INDEX_WRITER_FAILED' && /opensearch_1/.test(err.message) && /http:\/\/a\.example\/bad \(400 mapper_parsing_exception/.test(err.message));
  await w2.abort();

  const down = await node(t, { requestStatus: () => 503 });
  const w3 = await writer(down.port, { 'exponential.backoff.retries': '2' });
  await w3.write(doc('http://a.example/x'));
  await assert.rejects(w3.commit(), /after 3 attempts \(HTTP 503.*http:\/\/a\.example\/x/s);
  assert.equal(bulks(down).length, 3);
  await w3.abort();
});

test('indexer-opensearch: wrong credentials fail at once with a hint; bad parameters are named', async (t) => {
  const s = await node(t, { credentials: 'nutch:secret' });
  const w = await writer(s.port, { username: 'nutch', password: 'wrong' });
  await w.write(doc('http://a.example/'));
  await assert.rejects(w.commit(), /HTTP 401 \(check the username and password parameters\)/);
  assert.equal(bulks(s).length, 1, '401 is not retried');
  await w.abort();
  const ok = await writer(s.port, { username: 'nutch', password: 'secret' });
  await ok.write(doc('http://a.example/'));
  await ok.close();
  assert.equal(s.indices.get('nutch')?.size, 1);

  const dir = tempDir(t);
  writeFileSync(join(dir, 'truststore.jks'), 'not a pem');
  const cases: [Record<string, string>, RegExp][] = [
    [{ host: '' }, /parameter "host" is missing/],
    [{ index: 'Nutch' }, /"Nutch" is not a valid index name/],
    [{ 'max.bulk.docs': 'many' }, /"max.bulk.docs" must be an integer >= 1, got "many"/],
    [{ scheme: 'ftp' }, /"scheme" must be http or https/],
    [{ 'trust.store.path': join(dir, 'truststore.jks'), scheme: 'https' }, /is not PEM: Java key stores/],
    [{ 'trust.store.path': join(dir, 'missing.pem'), scheme: 'https' }, /cannot read trust.store.path/],
  ];
  for (const [params, message] of cases) {
    await assert.rejects(writer(s.port, params), (err: Error & { code?: string }) => err.code === 'NUTCH_INDEX_WRITERS_INVALID' && message.test(err.message) && /opensearch_1/.test(err.message), JSON.stringify(params));
  }
});

test('nutch crawl -i sends the crawled pages to OpenSearch through index-writers.json', async (t) => {
  const s = await node(t);
  const { web, docs } = await indexCrawl(t, {
    files: { '/a.html': { contentType: 'text/html', body: '<html><head><title>Quay A</title></head><body>Bollards and ropes</body></html>' } },
    seeds: (w) => [w.url(0, '/a.html'), w.url(0, '/')],
    plugins: 'indexer-opensearch',
    writers: [{ id: 'opensearch_1', extension: 'org.apache.nutch.indexwriter.opensearch1x.OpenSearch1xIndexWriter', parameters: { host: '127.0.0.1', port: String(s.port), scheme: 'http', index: 'crawl' } }],
  });
  const stored = s.indices.get('crawl');
  assert.ok(stored, `requests: ${s.requests.map((r) => r.path).join(' ')}`);
  assert.deepEqual([...stored.keys()].sort(), [...docs.keys()].sort(), 'OpenSearch got what the jsonl writer got');
  const a = stored.get(web.url(0, '/a.html'))!;
  assert.equal(a.title, 'Quay A');
  assert.match(String(a.content), /Bollards and ropes/);
});

const live = process.env.NUTCH_TEST_OPENSEARCH_URL;
test('indexer-opensearch against a real OpenSearch node (NUTCH_TEST_OPENSEARCH_URL)', { skip: !live && 'set NUTCH_TEST_OPENSEARCH_URL=http(s)://user:password@host:9200/<index> to run' }, async () => {
  const url = new URL(live!);
  const index = url.pathname.replace(/^\/+|\/+$/g, '') || 'nutch-ts-live';
  const w = new OpenSearchIndexWriter();
  await w.open({ writerId: 'opensearch_live', parameters: {
    host: url.hostname, port: url.port || '9200', scheme: url.protocol.replace(':', ''), index,
    username: decodeURIComponent(url.username || 'admin'), password: decodeURIComponent(url.password || 'admin'),
  } });
  const id = `nutch-ts-live-${process.pid}-${Date.now()}`;
  await w.write(doc(id, { url: [id], title: ['nutch-ts live test'] }));
  await w.commit();
  const auth = `Basic ${Buffer.from(`${decodeURIComponent(url.username || 'admin')}:${decodeURIComponent(url.password || 'admin')}`).toString('base64')}`;
  const base = `${url.protocol}//${url.host}`;
  const got = await fetch(`${base}/${index}/_doc/${encodeURIComponent(id)}`, { headers: { authorization: auth } });
  assert.equal(got.status, 200);
  await w.delete(id);
  await w.close();
  const gone = await fetch(`${base}/${index}/_doc/${encodeURIComponent(id)}`, { headers: { authorization: auth } });
  assert.equal(gone.status, 404);
});

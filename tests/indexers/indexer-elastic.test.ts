/**
 * indexer-elastic against a local HTTP server that records every request: the exact `_bulk` NDJSON
 * bodies of the documented format, batching, auth headers, retries of transient failures and of
 * 429 items, and loud failures naming the documents. Contract-tested only: no Elasticsearch here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { ElasticIndexWriter } from '../../plugins/indexer-elastic/index.js';
import { createDocument } from '../../core/model/nutch-document.js';

interface Seen {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Reply = (body: string, n: number) => { status: number; json: unknown };

async function server(t: { after(fn: () => unknown): void }, reply: Reply = (body) => ({ status: 200, json: { errors: false, items: body.trim().split('\n').filter((l) => /"(index|delete)":\{"_index"/.test(l)).map(() => ({ index: { status: 201 } })) } })) {
  const seen: Seen[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c) => (body += c)).on('end', () => {
      seen.push({ url: req.url!, headers: req.headers, body });
      const r = reply(body, seen.length);
      res.writeHead(r.status, { 'content-type': 'application/json' }).end(JSON.stringify(r.json));
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => s.close(() => r(undefined))));
  return { seen, port: (s.address() as { port: number }).port };
}

function doc(id: string, fields: Record<string, (string | Date)[]> = {}) {
  const d = createDocument();
  d.fields = { id: [id], ...fields };
  return d;
}

async function writer(port: number, extra: Record<string, string> = {}) {
  const w = new ElasticIndexWriter();
  await w.open({ writerId: 'es_1', parameters: { host: '127.0.0.1', port: String(port), index: 'nutch', 'exponential.backoff.millis': '1', ...extra } });
  return w;
}

test('indexer-elastic: exact _bulk NDJSON bodies for index and delete actions', async (t) => {
  const { seen, port } = await server(t);
  const w = await writer(port);
  await w.write(doc('http://a.example/', { title: ['A "quoted" title'], anchor: ['x', 'y'], tstamp: [new Date(Date.UTC(2026, 0, 2))] }));
  await w.delete('http://gone.example/');
  await w.commit();
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.url, '/_bulk');
  assert.equal(seen[0]!.headers['content-type'], 'application/x-ndjson');
  assert.equal(seen[0]!.body,
    '{"index":{"_index":"nutch","_id":"http://a.example/"}}\n' +
    '{"id":"http://a.example/","title":"A \\"quoted\\" title","anchor":["x","y"],"tstamp":"2026-01-02T00:00:00.000Z"}\n' +
    '{"delete":{"_index":"nutch","_id":"http://gone.example/"}}\n');
  await w.close();
  assert.equal(seen.length, 1, 'nothing left to send');
});

test('indexer-elastic: batches by max.bulk.docs and max.bulk.size', async (t) => {
  const { seen, port } = await server(t);
  const w = await writer(port, { 'max.bulk.docs': '2' });
  for (let i = 0; i < 5; i++) await w.write(doc(`d${i}`));
  await w.commit();
  assert.deepEqual(seen.map((s) => s.body.trim().split('\n').length / 2), [2, 2, 1]);
  const bySize = await server(t);
  const w2 = await writer(bySize.port, { 'max.bulk.size': '150' });
  for (let i = 0; i < 4; i++) await w2.write(doc(`doc-${i}`, { title: ['t'.repeat(30)] }));
  await w2.commit();
  assert.ok(bySize.seen.length >= 2, 'split by bytes');
  assert.ok(bySize.seen.every((s) => Buffer.byteLength(s.body) <= 150));
});

test('indexer-elastic: basic auth and api key headers', async (t) => {
  const { seen, port } = await server(t);
  const basic = await writer(port, { username: 'elastic', password: 's3cret' });
  await basic.write(doc('a'));
  await basic.commit();
  const key = await writer(port, { 'api.key': 'QUJDOkRFRg==' });
  await key.write(doc('b'));
  await key.commit();
  assert.equal(seen[0]!.headers.authorization, `Basic ${Buffer.from('elastic:s3cret').toString('base64')}`);
  assert.equal(seen[1]!.headers.authorization, 'ApiKey QUJDOkRFRg==');
});

test('indexer-elastic: 503 is retried with backoff; 429 items are re-sent alone', async (t) => {
  const { seen, port } = await server(t, (body, n) => {
    if (n === 1) return { status: 503, json: { error: 'unavailable' } };
    if (n === 2) return { status: 200, json: { errors: true, items: [{ index: { status: 201 } }, { index: { status: 429, error: { type: 'es_rejected_execution_exception' } } }] } };
    return { status: 200, json: { errors: false, items: [{ index: { status: 201 } }] } };
  });
  const w = await writer(port);
  await w.write(doc('one'));
  await w.write(doc('two'));
  await w.commit();
  assert.equal(seen.length, 3);
  assert.equal(seen[0]!.body, seen[1]!.body);
  assert.equal(seen[2]!.body, '{"index":{"_index":"nutch","_id":"two"}}\n{"id":"two"}\n');
});

test('indexer-elastic: a rejected item fails loudly naming the document; retries run out naming the batch', async (t) => {
  const rejecting = await server(t, () => ({ status: 200, json: { errors: true, items: [{ index: { status: 400, error: { type: 'mapper_parsing_exception', reason: 'failed to parse field [tstamp]' } } }] } }));
  const w = await writer(rejecting.port);
  await w.write(doc('bad-doc'));
  await assert.rejects(w.commit(), (e: { code: string; message: string }) => e.code === 'NUTCH_INDEX_WRITER_FAILED' && /es_1/.test(e.message) && /bad-doc \(400 mapper_parsing_exception: failed to parse field \[tstamp\]\)/.test(e.message));
  const down = await server(t, () => ({ status: 502, json: {} }));
  const w2 = await writer(down.port, { 'exponential.backoff.retries': '2' });
  await w2.write(doc('lost-1'));
  await assert.rejects(w2.commit(), (e: { message: string }) => /after 3 attempts \(HTTP 502\); 1 action\(s\) not written: lost-1/.test(e.message));
  assert.equal(down.seen.length, 3);
});

test('indexer-elastic: a refused connection is retried then fails; bad parameters name the writer', async () => {
  const w = await writer(1, { 'exponential.backoff.retries': '1' });
  await w.write(doc('x'));
  await assert.rejects(w.commit(), (e: { code: string; message: string }) => e.code === 'NUTCH_INDEX_WRITER_FAILED' && /after 2 attempts/.test(e.message));
  await assert.rejects(new ElasticIndexWriter().open({ writerId: 'es_bad', parameters: { index: 'Bad Index' } }), (e: { code: string; message: string }) => e.code === 'NUTCH_INDEX_WRITERS_INVALID' && /es_bad/.test(e.message));
  await assert.rejects(new ElasticIndexWriter().open({ writerId: 'es_bad', parameters: { 'max.bulk.docs': 'many' } }), /max\.bulk\.docs/);
});

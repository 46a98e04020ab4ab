/** `nutch warc` over a real crawl of the test web, re-read by an independent WARC/1.1 reader. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnNutch } from '../helpers/cli.js';
import { crawledWeb } from '../helpers/crawled-web.js';
import { readWarcGz, parseHttp } from '../tools/warc-reader.js';

test('warc exports every fetched page as response, request and metadata records, one gzip member each', async (t) => {
  const { web, cwd } = await crawledWeb(t, { hosts: 2, pagesPerHost: 5, linksPerPage: 3, robots: true, seed: 3 }, { rounds: 2, config: { 'store.http.request': true } });
  const r = await spawnNutch(['warc', 'out', '-dir', 'crawl/segments'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /WARCExporter:\n[\s\S]*records generated=\d+/);
  const file = join(cwd, 'out', 'part-r-00000.warc.gz');
  assert.ok(existsSync(file));
  const records = readWarcGz(readFileSync(file));

  const [info, ...rest] = records;
  assert.equal(info!.fields.get('warc-type'), 'warcinfo');
  assert.match(info!.block.toString(), /^software: nutch-ts\//m);

  // ground truth: the pages the test web itself served (robots.txt aside)
  const served = new Set<string>();
  for (const [host, reqs] of web.requestLog) for (const q of reqs) if (q.path !== '/robots.txt') served.add(`http://${host}${q.path}`);
  assert.ok(served.size >= 4, `crawl served ${served.size} pages`);

  const responses = new Map<string, (typeof records)[number]>();
  for (const rec of rest) {
    assert.equal(rec.version, 'WARC/1.1');
    assert.equal(rec.fields.get('warc-warcinfo-id'), info!.fields.get('warc-record-id'));
    if (rec.fields.get('warc-type') === 'response') responses.set(rec.fields.get('warc-record-id')!, rec);
  }
  assert.deepEqual(new Set([...responses.values()].map((x) => x.fields.get('warc-target-uri'))), served);

  for (const rec of responses.values()) {
    const uri = rec.fields.get('warc-target-uri')!;
    assert.equal(rec.fields.get('content-type'), 'application/http;msgtype=response');
    const http = parseHttp(rec.block);
    assert.match(http.startLine, /^HTTP\/1\.1 200 OK$/, uri);
    assert.equal(Number(http.headers.get('content-length')?.[0]), http.body.length, uri);
    const live = Buffer.from(await (await fetch(uri)).arrayBuffer());
    assert.ok(http.body.equals(live), `body of ${uri} is what the test web serves`);
  }
  const requests = rest.filter((x) => x.fields.get('warc-type') === 'request');
  const metadata = rest.filter((x) => x.fields.get('warc-type') === 'metadata');
  assert.equal(requests.length, responses.size);
  assert.equal(metadata.length, responses.size);
  for (const q of requests) {
    const resp = responses.get(q.fields.get('warc-concurrent-to')!);
    assert.ok(resp, 'request record is concurrent to a response record');
    assert.equal(q.fields.get('warc-target-uri'), resp.fields.get('warc-target-uri'));
    const http = parseHttp(q.block);
    assert.equal(http.startLine, `GET ${new URL(q.fields.get('warc-target-uri')!).pathname} HTTP/1.1`);
    const seen = web.requestsFor(q.fields.get('warc-target-uri')!)[0]!.headers['user-agent'];
    assert.deepEqual(http.headers.get('user-agent'), [seen], 'the stored request has the User-Agent the server received');
  }
  for (const m of metadata) {
    assert.ok(responses.has(m.fields.get('warc-refers-to')!), 'metadata refers to a response');
    assert.match(m.block.toString(), /^nutch-fetch-status: fetch_success$/m);
  }
});

test('warc without segments is a usage error', async (t) => {
  const { tempDir } = await import('../helpers/temp-dir.js');
  const cwd = tempDir(t);
  const r = await spawnNutch(['warc', 'out'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /No segments given/);
});

/**
 * nutch server's JSON API without a browser: token auth off loopback, schema-checked bodies and
 * queries, the codes of each refusal, one crawl at a time, a polite stop, and the event stream.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNutch } from '../../sdk/create-nutch.js';
import { createCrawlServer } from '../../sdk/server/crawl-server.js';
import { isLoopback } from '../../sdk/cli/commands/server.js';
import { createMemoryLogger } from '../../core/log.js';
import { startTestWeb } from '../web/test-web.js';
import { tempDir } from '../helpers/temp-dir.js';

const config = { 'http.agent.name': 'server-test', 'fetcher.server.delay': 0.01 };

test('loopback addresses need no token; anything else does', () => {
  for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1']) assert.equal(isLoopback(h), true, h);
  for (const h of ['0.0.0.0', '192.168.1.2', '::', 'example.org']) assert.equal(isLoopback(h), false, h);
});

test('with a token, every /api request must carry it; the page itself is served', async (t) => {
  const nutch = await createNutch({ cwd: tempDir(t), config, logger: createMemoryLogger() });
  const { app } = createCrawlServer({ nutch, token: 'secret-token-1' });
  t.after(async () => { await app.close(); await nutch.close(); });
  const denied = await app.inject({ url: '/api/status' });
  assert.equal(denied.statusCode, 401);
  assert.equal(denied.json().code, 'NUTCH_SERVER_UNAUTHORIZED');
  assert.equal((await app.inject({ url: '/api/status', headers: { authorization: 'Bearer wrong-token-1' } })).statusCode, 401);
  assert.equal((await app.inject({ url: '/api/status', headers: { authorization: 'Bearer secret-token-1' } })).statusCode, 200);
  assert.equal((await app.inject({ url: '/api/status?token=secret-token-1' })).statusCode, 200);
  const page = await app.inject({ url: '/' });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<script type="module" src="\/assets\/app.js">/);
  for (const asset of ['app.js', 'preact.js', 'uplot.js', 'uplot.css', 'dashboard.css']) assert.equal((await app.inject({ url: `/assets/${asset}` })).statusCode, 200, asset);
  assert.equal((await app.inject({ url: '/assets/..%2Fpackage.json' })).statusCode, 404);
});

test('bad requests and missing stores get their codes', async (t) => {
  const nutch = await createNutch({ cwd: tempDir(t), config, logger: createMemoryLogger() });
  const { app } = createCrawlServer({ nutch });
  t.after(async () => { await app.close(); await nutch.close(); });
  const post = (body: unknown) => app.inject({ method: 'POST', url: '/api/crawl', payload: body as object });
  for (const body of [{ rounds: 0 }, { rounds: 'two' }, { seeds: 'http://x/' }, { topN: 5, colour: 'red' }]) {
    const r = await post(body);
    assert.equal(r.statusCode, 400, JSON.stringify(body));
    assert.equal(r.json().code, 'NUTCH_SERVER_BAD_REQUEST');
  }
  assert.equal((await app.inject({ url: '/api/search' })).json().code, 'NUTCH_SERVER_BAD_REQUEST');
  const stats = await app.inject({ url: '/api/crawldb/stats' });
  assert.equal(stats.statusCode, 404);
  assert.equal(stats.json().code, 'NUTCH_STORAGE_NOT_FOUND');
  assert.equal((await app.inject({ url: '/api/hosts' })).statusCode, 404);
  assert.equal((await app.inject({ url: '/api/search?q=x' })).statusCode, 404);
  assert.deepEqual((await app.inject({ url: '/api/segments' })).json(), []);
  const stop = await app.inject({ method: 'POST', url: '/api/crawl/stop' });
  assert.equal(stop.statusCode, 409);
  assert.equal(stop.json().code, 'NUTCH_SERVER_NO_CRAWL');
});

test('one crawl at a time; its events stream; stop is polite and the stores stay readable', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 30, linksPerPage: 6, seed: 4, latencyMs: 150 });
  t.after(() => web.close());
  const nutch = await createNutch({ cwd: tempDir(t), config: { ...config, 'fetcher.threads.fetch': 2 }, logger: createMemoryLogger() });
  const { app } = createCrawlServer({ nutch });
  t.after(async () => { await app.close(); await nutch.close(); });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });

  const events = new AbortController();
  t.after(() => events.abort());
  const stream = await fetch(`${base}/api/crawl/events`, { signal: events.signal });
  assert.equal(stream.headers.get('content-type'), 'text/event-stream');
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const until = async (re: RegExp) => {
    while (!re.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`event stream ended before ${re}`);
      text += value;
    }
  };
  await until(/^event: state\ndata: null\n\n/);

  const started = await fetch(`${base}/api/crawl`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seeds: web.seeds, rounds: 3, topN: 100 }) });
  assert.equal(started.status, 202);
  const again = await fetch(`${base}/api/crawl`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rounds: 1 }) });
  assert.equal(again.status, 409);
  assert.equal((await again.json() as { code: string }).code, 'NUTCH_SERVER_CRAWL_RUNNING');

  await until(/"type":"page","stage":"fetch"/);
  assert.match(text, /event: progress\ndata: \{"type":"stage-start","stage":"inject"/);
  const stopped = await fetch(`${base}/api/crawl/stop`, { method: 'POST' });
  assert.equal(stopped.status, 200);
  const state = await stopped.json() as { state: string; summary: Record<string, number>; pages: number };
  assert.equal(state.state, 'stopped');
  assert.equal(state.summary['stopped.by.signal'], 1);
  assert.ok(state.pages >= 1);
  await until(/"state":"stopped"/);

  // what was done is committed and readable through the API
  const stats = await (await fetch(`${base}/api/crawldb/stats`)).json() as { totalUrls: number };
  assert.ok(stats.totalUrls >= web.seeds.length);
  const hosts = await (await fetch(`${base}/api/hosts`)).json() as { host: string; total: number }[];
  assert.equal(hosts.reduce((n, h) => n + h.total, 0), stats.totalUrls);
});

/**
 * The fetch path loads only undici's Agent, connector and request API, not its entry point (fetch,
 * WebSocket, cache stores…): core/protocol/undici-module.ts. These pin undici's file layout — a later
 * undici that moved them would silently fall back to the slower entry point — and the request API
 * called without the entry point's wrapper: origin, path with query, method.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { undiciFetchParts } from '../../core/protocol/undici-module.js';

const require = createRequire(import.meta.url);
const entry = require.resolve('undici');

test('undici fetch parts: loaded from undici\'s own files without its entry point', () => {
  const parts = undiciFetchParts();
  assert.equal(require.cache[entry], undefined, 'undici\'s entry point was not evaluated');
  const undici = require('undici') as typeof import('undici');
  assert.equal(parts.Agent, undici.Agent, 'lib/dispatcher/agent.js is undici\'s Agent');
  assert.equal(parts.buildConnector, undici.buildConnector, 'lib/core/connect.js is undici\'s buildConnector');
});

test('undici fetch parts: request sends the path with its query, GET by default, through the given dispatcher', async (t) => {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => server.close());
  const { port } = server.address() as { port: number };
  const parts = undiciFetchParts();
  const agent = new parts.Agent();
  t.after(() => agent.close());
  const res = await parts.request(new URL(`http://127.0.0.1:${port}/a/b.html?x=1&y=2#frag`), { dispatcher: agent, headers: { 'x-test': '1' } });
  assert.equal(res.statusCode, 200);
  assert.equal(await res.body.text(), 'hello');
  const head = await parts.request(new URL(`http://127.0.0.1:${port}/`), { dispatcher: agent, method: 'HEAD' });
  await head.body.dump();
  assert.deepEqual(seen, ['GET /a/b.html?x=1&y=2', 'HEAD /']);
});

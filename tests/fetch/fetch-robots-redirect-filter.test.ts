/** A robots.txt redirect to a host the URL filters reject is not followed: no request reaches that host. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { join } from 'node:path';
import { runNutch } from '../helpers/cli.js';
import { storageArgs } from '../helpers/test-storage.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import { fetchContext, generateSegment, readPart } from './fetch-helpers.js';
import { statusName } from '../../core/model/crawl-datum.js';

async function listen(t: { after(fn: () => void): void }, handler: Parameters<typeof createServer>[1]): Promise<string> {
  const srv: Server = createServer(handler);
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  t.after(() => srv.close());
  return `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
}

test('nutch fetch: robots.txt redirecting to a filtered host is not followed; the page is fetched; the filtered host sees nothing', async (t) => {
  const forbiddenHits: string[] = [];
  const forbidden = await listen(t, (req, res) => {
    forbiddenHits.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('User-agent: *\nDisallow: /\n');
  });
  const site = await listen(t, (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(301, { Location: `${forbidden}/robots.txt` }).end();
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>ok</body></html>');
  });
  const ctx = fetchContext(t);
  const seg = await generateSegment(ctx, [[`${site}/page.html`]]);
  const cwd = tempDir(t);
  writeFile(join(cwd, 'regex-urlfilter.txt'), `-^${forbidden.replace(/\./g, '\\.')}/\n+.\n`);
  const r = await runNutch(['fetch', '-D', 'http.agent.name=x', '-D', 'fetcher.server.delay=0', '-D', 'plugin.includes=protocol-http|urlfilter-regex', ...storageArgs(ctx), seg], { cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(forbiddenHits, [], 'no request reached the host the filters reject');
  const [rec] = await readPart(ctx, seg, 'crawl_fetch');
  assert.equal(statusName(rec!.value.status), 'fetch_success', 'robots.txt unreachable: allow all');
});

/**
 * protocol-playwright with http.address.deny and http.proxy.*: every request the page makes goes
 * through protocol-http's guarded connections (core/protocol/http-dispatchers.ts), so a script on a
 * refused address is never requested — not even a connection reaches it — and with a proxy every
 * request, robots.txt included, goes through the proxy. Real Chromium (/usr/bin/chromium).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { fixtureContext, logged } from '../helpers/context.js';
import { startForwardProxy } from '../helpers/forward-proxy.js';
import { createCrawlDatum, CrawlStatus, protocolStatusName } from '../../core/model/index.js';
import type { PlaywrightProtocol } from '../../plugins/protocol-playwright/playwright-protocol.js';

interface Site {
  base: string;
  hits: string[];
  connections: number;
  close(): Promise<void>;
}

async function site(t: { after(fn: () => unknown): void }, address: string, pages: (base: string) => Record<string, [string, string]>): Promise<Site> {
  const s = { hits: [] as string[], connections: 0 } as Site;
  let routes: Record<string, [string, string]> = {};
  const server: Server = createServer((req, res) => {
    s.hits.push(req.url ?? '/');
    const hit = routes[(req.url ?? '/').split('?')[0]!];
    if (!hit) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': hit[0] }).end(hit[1]);
  });
  server.on('connection', () => s.connections++);
  await new Promise<void>((r) => server.listen(0, address, r));
  s.base = `http://${address}:${(server.address() as { port: number }).port}`;
  routes = pages(s.base);
  s.close = () => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  };
  t.after(() => s.close());
  return s;
}

async function playwright(t: Parameters<typeof fixtureContext>[0], defines: Record<string, string>) {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'http.agent.name': 'RenderBot', 'plugin.includes': 'protocol-playwright', ...defines } });
  const p = (await ctx.extensions.protocolFactory().getProtocol('http://127.0.0.1/')) as unknown as PlaywrightProtocol;
  t.after(() => p.close());
  return { ctx, p };
}

const datum = () => createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED });
const html = (head: string, body: string) => ['text/html; charset=utf-8', `<!doctype html><html><head><title>T</title>${head}</head><body>${body}</body></html>`] as [string, string];
const js = (code: string) => ['application/javascript', code] as [string, string];
const addLink = (href: string) => `document.body.append(Object.assign(document.createElement('a'), { href: '${href}', textContent: 'x' }));`;

test('protocol-playwright + http.address.deny: a refused address gets no request and no connection; the page still renders', async (t) => {
  const evil = await site(t, '127.0.0.3', () => ({ '/evil.js': js(addLink('/from-evil.html')), '/page.html': html('', 'evil') }));
  const good = await site(t, '127.0.0.1', (base) => ({
    '/page.html': html(`<link rel="preconnect" href="${evil.base}/"><link rel="dns-prefetch" href="${evil.base}/">`,
      `<img src="${evil.base}/pixel.png"><script src="/ok.js"></script><script src="${evil.base}/evil.js"></script><iframe src="${evil.base}/page.html"></iframe>`),
    '/ok.js': js(addLink(`${base}/from-ok.html`)),
  }));
  const { ctx, p } = await playwright(t, { 'http.address.deny': '127.0.0.3' });
  const out = await p.getProtocolOutput(`${good.base}/page.html`, datum());
  assert.equal(protocolStatusName(out.status.code), 'SUCCESS', out.status.args.join(' '));
  const dom = Buffer.from(out.content!.content).toString('utf8');
  assert.match(dom, /from-ok\.html/, 'scripts on allowed addresses run (fetched through the guarded connector)');
  assert.doesNotMatch(dom, /from-evil\.html/);
  assert.deepEqual(good.hits.sort(), ['/ok.js', '/page.html']);
  assert.equal(evil.connections, 0, `no connection to the refused address (requests: ${evil.hits.join(', ')})`);
  assert.match(logged(ctx).join('\n'), /request to http:\/\/127\.0\.0\.3:\d+\/.* failed: .*refused by http\.address\.deny/);

  const direct = await p.getProtocolOutput(`${evil.base}/page.html`, datum());
  assert.equal(protocolStatusName(direct.status.code), 'ACCESS_DENIED', direct.status.args.join(' '));
  assert.match(direct.status.args[0] ?? '', /refused by http\.address\.deny \(127\.0\.0\.3\)/);
  assert.equal(evil.connections, 0);
});

test('protocol-playwright + http.proxy.host: the document, its scripts and robots.txt all go through the proxy', async (t) => {
  const proxy = await startForwardProxy();
  t.after(() => proxy.close());
  const web = await site(t, '127.0.0.1', () => ({
    '/robots.txt': ['text/plain', 'User-agent: *\nDisallow: /private/\n'],
    '/page.html': html('', '<script src="/app.js"></script>'),
    '/app.js': js(addLink('/from-app.html')),
  }));
  const { p } = await playwright(t, { 'http.proxy.host': '127.0.0.1', 'http.proxy.port': String(proxy.port) });
  const out = await p.getProtocolOutput(`${web.base}/page.html`, datum());
  assert.equal(protocolStatusName(out.status.code), 'SUCCESS', out.status.args.join(' '));
  assert.match(Buffer.from(out.content!.content).toString('utf8'), /from-app\.html/);
  const rules = await p.getRobotRules(`${web.base}/page.html`, null);
  assert.equal(rules.isAllowed(`${web.base}/private/x`), false);
  const host = web.base.replace('http://', '');
  assert.ok(proxy.seen.length >= 1 && proxy.seen.every((s) => s.includes(host)), `proxy saw: ${proxy.seen.join(', ')}`);
  // undici tunnels through CONNECT: the proxy sees the tunnels, the site sees every request
  assert.deepEqual(web.hits.sort(), ['/app.js', '/page.html', '/robots.txt']);
  assert.equal(web.connections, proxy.seen.length, 'every connection to the site came from the proxy');
});

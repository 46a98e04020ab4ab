import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestWeb } from '../web/test-web.js';
import { fixtureContext } from '../helpers/context.js';
import { startForwardProxy } from '../helpers/forward-proxy.js';
import { createCrawlDatum, CrawlStatus, protocolStatusName } from '../../core/model/index.js';

async function http(t: Parameters<typeof fixtureContext>[0], defines: Record<string, string>) {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'http.agent.name': 'TestBot', 'http.timeout': '800', 'plugin.includes': 'protocol-http', ...defines } });
  return ctx.extensions.protocolFactory().getProtocol('http://x/');
}
const datum = () => createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED });

test('protocol-http: http.proxy.host routes through the proxy, http.proxy.exception.list bypasses it', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 2, linksPerPage: 1 });
  const proxy = await startForwardProxy();
  t.after(async () => { await web.close(); await proxy.close(); });
  const p = await http(t, { 'http.proxy.host': '127.0.0.1', 'http.proxy.port': String(proxy.port), 'http.proxy.exception.list': web.hosts[1]!.split(':')[0]! });
  const a = await p.getProtocolOutput(web.seeds[0]!, datum());
  assert.equal(protocolStatusName(a.status.code), 'SUCCESS');
  assert.match(Buffer.from(a.content!.content).toString(), /Host 0 page 0/);
  assert.ok(proxy.seen.some((s) => s.includes(web.hosts[0]!)), `proxy saw ${proxy.seen.join(', ')}`);
  const b = await p.getProtocolOutput(web.seeds[1]!, datum());
  assert.equal(protocolStatusName(b.status.code), 'SUCCESS');
  assert.ok(!proxy.seen.some((s) => s.includes(web.hosts[1]!)), 'excepted host not proxied');
});

test('protocol-http: a TLS failure (https to a plain HTTP port) is an EXCEPTION, not a crash', async (t) => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 1, linksPerPage: 1 });
  t.after(() => web.close());
  const p = await http(t, {});
  const out = await p.getProtocolOutput(`https://${web.hosts[0]}/`, datum());
  assert.equal(protocolStatusName(out.status.code), 'EXCEPTION');
  assert.equal(out.content, null);
});

test('protocol-http: https; self-signed certificates accepted unless http.tls.certificates.check', async (t) => {
  const { createServer: createHttps } = await import('node:https');
  const { readFileSync } = await import('node:fs');
  const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
  const server = createHttps({ key: fixture('self-signed.key'), cert: fixture('self-signed.crt') }, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<html><title>secure</title></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  const url = `https://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const lax = await http(t, {});
  const ok = await lax.getProtocolOutput(url, datum());
  assert.equal(protocolStatusName(ok.status.code), 'SUCCESS');
  assert.match(Buffer.from(ok.content!.content).toString(), /secure/);
  const strict = await http(t, { 'http.tls.certificates.check': 'true' });
  const refused = await strict.getProtocolOutput(url, datum());
  assert.equal(protocolStatusName(refused.status.code), 'EXCEPTION');
  assert.match(refused.status.args[0]!, /certificate/i);
});

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestWeb, type TestWeb } from '../web/test-web.js';
import { fixtureContext } from '../helpers/context.js';
import { createCrawlDatum, CrawlStatus, ContentMeta, ProtocolStatusCode, protocolStatusName } from '../../core/model/index.js';
import type { Protocol } from '../../core/extension-points/protocol.js';

let web: TestWeb;
before(async () => {
  web = await startTestWeb({ hosts: 2, pagesPerHost: 4, linksPerPage: 3, robots: { crawlDelay: 0.5, disallow: ['/private/', '/special/status/'] } });
});
after(() => web.close());

async function http(t: Parameters<typeof fixtureContext>[0], defines: Record<string, string> = {}): Promise<Protocol> {
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'http.agent.name': 'TestBot', 'http.agent.url': 'http://bot.test/', 'http.timeout': '400', 'plugin.includes': 'protocol-http', ...defines } });
  const p = await ctx.extensions.protocolFactory().getProtocol('http://x/');
  return p;
}
const datum = (init = {}) => createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED, ...init });
const name = (code: number) => protocolStatusName(code);

test('protocol-http: 200 with headers as Content metadata and Nutch\'s agent string', async (t) => {
  const p = await http(t);
  const d = datum();
  const out = await p.getProtocolOutput(web.seeds[0]!, d);
  assert.equal(name(out.status.code), 'SUCCESS');
  assert.match(out.content!.contentType, /^text\/html/);
  assert.match(Buffer.from(out.content!.content).toString(), /<title>Host 0 page 0<\/title>/);
  assert.deepEqual(out.content!.metadata[ContentMeta.RESPONSE_CODE], ['200']);
  assert.ok(out.content!.metadata['Content-Type']);
  assert.ok(Number(d.metaData._rs_?.[0]) >= 0, 'response time stored');
  const echo = await p.getProtocolOutput(web.url(0, '/special/echo-headers'), datum());
  const sent = JSON.parse(Buffer.from(echo.content!.content).toString());
  assert.equal(sent['user-agent'], 'TestBot/Nutch-1.21 (http://bot.test/)');
  assert.match(sent['accept-encoding'], /br/);
  assert.equal(sent['if-modified-since'], undefined);
});

test('protocol-http: Nutch\'s status mapping', async (t) => {
  const p = await http(t);
  const cases: [string, string, string?][] = [
    ['/missing/1.html', 'NOTFOUND'],
    ['/gone/1', 'GONE'],
    ['/special/status/400', 'GONE'],
    ['/special/status/401', 'ACCESS_DENIED'],
    ['/special/status/403', 'EXCEPTION'],
    ['/special/status/500', 'EXCEPTION'],
    ['/redirect/301/2', 'MOVED', '/page/2.html'],
    ['/redirect/302/3', 'TEMP_MOVED', '/page/3.html'],
    ['/special/redirect-to?code=307&url=/page/1.html', 'TEMP_MOVED', '/page/1.html'],
    ['/special/redirect-to?code=308&url=ftp://files.test/x', 'MOVED'],
    ['/special/binary', 'SUCCESS'],
  ];
  for (const [path, expected, target] of cases) {
    const out = await p.getProtocolOutput(web.url(1, path), datum());
    assert.equal(name(out.status.code), expected, path);
    if (target) assert.equal(out.status.args[0], web.url(1, target));
  }
  const ftp = await p.getProtocolOutput(web.url(1, '/special/redirect-to?code=308&url=ftp://files.test/x'), datum());
  assert.equal(ftp.status.args[0], 'ftp://files.test/x');
});

test('protocol-http: gzip, deflate and br are decoded', async (t) => {
  const p = await http(t);
  for (const kind of ['gzip', 'deflate', 'br']) {
    const out = await p.getProtocolOutput(web.url(0, `/special/${kind}`), datum());
    assert.equal(out.status.code, ProtocolStatusCode.SUCCESS, kind);
    assert.match(Buffer.from(out.content!.content).toString(), /Host 0 page 0/, kind);
    assert.equal(out.content!.metadata[ContentMeta.TRUNCATED], undefined);
  }
});

test('protocol-http: http.content.limit applies to decoded bytes (gzip bomb stops at the limit)', async (t) => {
  const p = await http(t, { 'http.content.limit': '65536' });
  const big = await p.getProtocolOutput(web.url(0, '/special/big?bytes=1000000'), datum());
  assert.equal(big.content!.content.length, 65536);
  assert.deepEqual(big.content!.metadata[ContentMeta.TRUNCATED], ['LENGTH']);
  const rss0 = process.memoryUsage().rss;
  const bomb = await p.getProtocolOutput(web.url(0, '/special/gzip-bomb?bytes=20000000'), datum());
  assert.equal(bomb.content!.content.length, 65536);
  assert.deepEqual(bomb.content!.metadata[ContentMeta.TRUNCATED], ['LENGTH']);
  assert.ok(process.memoryUsage().rss - rss0 < 100 * 1024 * 1024);
  const unlimited = await http(t, { 'http.content.limit': '-1' });
  assert.equal((await unlimited.getProtocolOutput(web.url(0, '/special/big?bytes=300000'), datum())).content!.content.length, 300000);
});

test('protocol-http: http.time.limit keeps what arrived, flagged TIME', async (t) => {
  const p = await http(t, { 'http.time.limit': '1' });
  // The trickle takes 20 s in full: fewer than 1000 bytes, flagged TIME, shows the 1 s limit cut it.
  const out = await p.getProtocolOutput(web.url(0, '/special/trickle?bytes=1000&interval=20'), datum());
  assert.equal(out.status.code, ProtocolStatusCode.SUCCESS);
  assert.deepEqual(out.content!.metadata[ContentMeta.TRUNCATED], ['TIME']);
  assert.ok(out.content!.content.length > 0 && out.content!.content.length < 1000);
});

test('protocol-http: timeouts, garbage, wrong content-length and resets', async (t) => {
  const p = await http(t);
  const hang = await p.getProtocolOutput(web.url(0, '/special/hang'), datum());
  assert.equal(name(hang.status.code), 'EXCEPTION');
  assert.match(hang.status.args[0]!, /Timeout/i);
  const garbage = await p.getProtocolOutput(web.url(0, '/special/garbage'), datum());
  assert.equal(name(garbage.status.code), 'EXCEPTION');
  const bad = await p.getProtocolOutput(web.url(0, '/special/bad-length'), datum());
  assert.equal(name(bad.status.code), 'SUCCESS');
  assert.equal(Buffer.from(bad.content!.content).toString(), '0123456789');
  assert.deepEqual(bad.content!.metadata[ContentMeta.TRUNCATED], ['DISCONNECT']);
  const reset = await p.getProtocolOutput(web.url(0, '/special/reset'), datum());
  assert.deepEqual(reset.content!.metadata[ContentMeta.TRUNCATED], ['DISCONNECT']);
  const refused = await p.getProtocolOutput('http://127.0.0.1:1/', datum());
  assert.equal(name(refused.status.code), 'EXCEPTION');
});

test('protocol-http: If-Modified-Since from datum.modifiedTime; 304 -> NOTMODIFIED', async (t) => {
  const p = await http(t);
  const fresh = await p.getProtocolOutput(web.url(0, '/special/last-modified'), datum());
  assert.equal(name(fresh.status.code), 'SUCCESS');
  assert.equal(fresh.status.lastModified, Date.UTC(2020, 0, 1));
  const again = await p.getProtocolOutput(web.url(0, '/special/last-modified'), datum({ modifiedTime: Date.UTC(2021, 5, 1) }));
  assert.equal(name(again.status.code), 'NOTMODIFIED');
  const off = await http(t, { 'http.enable.if.modified.since.header': 'false' });
  assert.equal(name((await off.getProtocolOutput(web.url(0, '/special/last-modified'), datum({ modifiedTime: Date.UTC(2021, 5, 1) }))).status.code), 'SUCCESS');
});

test('protocol-http: Retry-After of 429/503 is passed on in Content metadata', async (t) => {
  const p = await http(t);
  const out = await p.getProtocolOutput(web.url(0, '/special/status/503?retry-after=2'), datum());
  assert.equal(name(out.status.code), 'EXCEPTION');
  assert.deepEqual(out.content!.metadata['Retry-After'], ['2000']);
});

test('protocol-http: robots.txt from the test web, cached', async (t) => {
  const p = await http(t);
  const rules = await p.getRobotRules!(web.url(1, '/private/1.html'), null);
  assert.equal(rules.isAllowed(web.url(1, '/private/1.html')), false);
  assert.equal(rules.isAllowed(web.url(1, '/page/1.html')), true);
  assert.equal(rules.getCrawlDelay(), 500);
  await p.getRobotRules!(web.url(1, '/'), null);
  assert.equal(web.requestsFor(web.url(1, '/robots.txt')).length, 1);
});

test('protocol-http: Retry-After as seconds or HTTP date; agent string as Nutch', async () => {
  const { parseRetryAfter } = await import('../../plugins/protocol-http/http-protocol.js');
  const { agentString } = await import('../../core/protocol/http-headers.js');
  const now = Date.UTC(2024, 0, 1, 12, 0, 0);
  assert.equal(parseRetryAfter('120', now), 120_000);
  assert.equal(parseRetryAfter('Mon, 01 Jan 2024 12:00:30 GMT', now), 30_000);
  assert.equal(parseRetryAfter('Mon, 01 Jan 2024 11:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter('soon', now), null);
  assert.equal(parseRetryAfter(undefined, now), null);
  const { createTestContext } = await import('../../sdk/testing.js');
  const conf = createTestContext({ defines: { 'http.agent.name': 'Bot', 'http.agent.version': '2.0', 'http.agent.description': 'test crawler', 'http.agent.email': 'bot@example.com' } }).conf;
  assert.equal(agentString(conf), 'Bot/2.0 (test crawler; bot@example.com)');
});

test('protocol-http: no Content-Type header -> sniffed from the bytes, then the URL extension', async (t) => {
  const p = await http(t);
  assert.equal((await p.getProtocolOutput(web.url(0, '/special/no-type'), datum())).content!.contentType, 'text/html');
  assert.equal((await p.getProtocolOutput(web.url(0, '/special/no-type.pdf'), datum())).content!.contentType, 'application/pdf');
  assert.match((await p.getProtocolOutput(web.seeds[0]!, datum())).content!.contentType, /^text\/html; charset=utf-8$/);
});

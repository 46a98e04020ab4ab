/**
 * The address policy (SSRF guard): http.address.deny / http.address.allow, checked on DNS answers and
 * on the connected socket. Only loopback addresses are used: loopback is denied and one test server's
 * address is the explicit exception, so a broken guard could only ever reach 127.0.0.0/8.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestWeb } from '../web/test-web.js';
import { fixtureContext } from '../helpers/context.js';
import { createCrawlDatum, CrawlStatus, statusName } from '../../core/model/crawl-datum.js';
import { ProtocolStatusCode, protocolStatusName } from '../../core/model/protocol-status.js';
import { AddressPolicy } from '../../core/protocol/address-policy.js';
import { loadConfiguration } from '../../core/config/index.js';
import { runNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { fetchContext, generateSegment, readPart } from '../fetch/fetch-helpers.js';

const conf = (defines: Record<string, string>) => loadConfiguration({ defines, cwd: tempDir(), env: {} });
const datum = () => createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED });

test('address policy: presets, CIDRs, exceptions, IPv4-mapped IPv6; a bad entry names the property', () => {
  const c = conf({ 'http.address.deny': 'loopback,private,link-local,metadata,203.0.113.0/24', 'http.address.allow': '127.0.0.9' });
  const p = AddressPolicy.fromConf(c)!;
  for (const [ip, rule] of [['127.0.0.1', 'loopback'], ['::1', 'loopback'], ['0.0.0.0', 'loopback'], ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:2', 'loopback'],
    ['10.1.2.3', 'private'], ['172.20.0.1', 'private'], ['192.168.1.1', 'private'], ['fd12::1', 'private'], ['::ffff:10.0.0.1', 'private'],
    ['169.254.169.254', 'link-local'], ['fe80::1', 'link-local'], ['203.0.113.7', '203.0.113.0/24']] as const) {
    assert.equal(p.deniedBy(ip), rule, ip);
  }
  for (const ip of ['127.0.0.9', '93.184.216.34', '2606:2800:220:1::1', '172.32.0.1']) assert.equal(p.deniedBy(ip), null, ip);
  assert.equal(AddressPolicy.fromConf(conf({})), null, 'off by default');
  const bad = conf({ 'http.address.deny': 'loopback,intranet' });
  assert.throws(() => AddressPolicy.fromConf(bad), (e: { code: string; message: string }) => e.code === 'NUTCH_CONFIG_INVALID_VALUE' && /http\.address\.deny.*"intranet"/.test(e.message));
});

test('protocol-http with loopback denied: every spelling of a denied address is refused before connecting; the exception is fetched', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 1, linksPerPage: 1 });
  t.after(() => web.close());
  const [allowedHost, deniedHost] = web.hosts as [string, string];
  const allowedIp = allowedHost.split(':')[0]!;
  const [deniedIp, port] = deniedHost.split(':') as [string, string];
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { 'http.agent.name': 'GuardBot', 'plugin.includes': 'protocol-http', 'http.timeout': '1000', 'http.address.deny': 'loopback', 'http.address.allow': allowedIp } });
  const http = await ctx.extensions.protocolFactory().getProtocol('http://x/');
  const ok = await http.getProtocolOutput(web.seeds[0]!, datum());
  assert.equal(protocolStatusName(ok.status.code), 'SUCCESS');
  const n = deniedIp.split('.').map(Number) as [number, number, number, number];
  const asInt = ((n[0] << 24) >>> 0) + (n[1] << 16) + (n[2] << 8) + n[3];
  const spellings = [
    `http://${deniedHost}/page/1.html`,
    `http://0x7f.${n[1]}.${n[2]}.${n[3]}:${port}/page/1.html`,
    `http://${asInt}:${port}/page/1.html`,
    `http://[::ffff:${deniedIp}]:${port}/page/1.html`,
    `http://localhost:${port}/page/1.html`,
  ];
  for (const url of spellings) {
    const out = await http.getProtocolOutput(url, datum());
    assert.equal(out.status.code, ProtocolStatusCode.ACCESS_DENIED, `${url}: ${out.status.args[0]}`);
    assert.match(out.status.args[0]!, /refused by http\.address\.deny \(loopback\)/);
  }
  const rules = await http.getRobotRules!(`http://${deniedHost}/`, null);
  assert.equal(rules.isAllowed(`http://${deniedHost}/x`), true, 'robots.txt unreachable: allow all (the page itself is refused)');
  assert.equal(web.requestLog.get(deniedHost), undefined, 'not one request reached the denied server');
});

test('nutch fetch with http.address.deny: a redirect into a denied address is refused, counted, fetch_gone; nothing reaches it', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 1, linksPerPage: 1 });
  t.after(() => web.close());
  const [allowedHost, deniedHost] = web.hosts as [string, string];
  const ctx = fetchContext(t);
  const target = `http://${deniedHost}/page/1.html`;
  const redirect = web.url(0, `/special/redirect-to?url=${encodeURIComponent(target)}`);
  const seg = await generateSegment(ctx, [[web.seeds[0]!, redirect, web.seeds[1]!]]);
  const cwd = tempDir(t);
  const r = await runNutch(['fetch', '-D', 'http.agent.name=GuardBot', '-D', 'fetcher.server.delay=0', '-D', 'plugin.includes=protocol-http', '-D', 'http.redirect.max=2',
    '-D', 'http.address.deny=loopback,private,link-local,metadata', '-D', `http.address.allow=${allowedHost.split(':')[0]}`, seg], { cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /address_denied=2/);
  const recs = new Map((await readPart(ctx, seg, 'crawl_fetch')).map((x) => [x.url, x.value]));
  assert.equal(statusName(recs.get(web.seeds[0]!)!.status), 'fetch_success');
  assert.equal(statusName(recs.get(target)!.status), 'fetch_gone');
  assert.match(recs.get(target)!.metaData._pst_![0]!, /access_denied.*http\.address\.deny \(loopback\)/);
  assert.equal(web.requestLog.get(deniedHost), undefined, 'not one request reached the denied server');
});

/**
 * Protocol selection (DESIGN §3): host-protocol-mapping (exact host, then its domains), then a
 * protocol:<scheme> mapping, then the first extension in order whose protocolName lists the scheme.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProtocolFactory } from '../../core/extension-points/protocol.js';
import { fixtureContext, logged, resetRecorder } from '../helpers/context.js';
import { pluginFixture } from '../helpers/temp-dir.js';

const served = async (f: ProtocolFactory, url: string) => ((await f.getProtocol(url)) as unknown as { name: string }).name;

test('by protocolName: the first extension in order that lists the scheme', async (t) => {
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('protocols')], config: { 'plugin.includes': 'fx-proto-.*' } });
  const f = ctx.extensions.protocolFactory();
  assert.equal(f.select('http://a.example/').extensionId, 'fx-proto-alt', 'fx-proto-alt sorts before fx-proto-web');
  assert.equal(await served(f, 'HTTPS://a.example/'), 'fx-proto-web');
  assert.equal(await served(f, 'file:///tmp/x'), 'fx-proto-file');
  assert.throws(() => f.select('ftp://a.example/'), (err: any) => err.code === 'NUTCH_PROTOCOL_NOT_FOUND' && /No Protocol extension handles "ftp:"/.test(err.message) && /fx-proto-web \(http,https\)/.test(err.message));
  assert.throws(() => f.select('not a url'), (err: any) => err.code === 'NUTCH_PROTOCOL_NOT_FOUND' && /malformed URL/.test(err.message));
});

test('host-protocol-mapping: exact host first, then its domain; then protocol:<scheme>', (t) => {
  const ctx = fixtureContext(t, {
    pluginFolders: [pluginFixture('protocols')],
    config: {
      'plugin.includes': 'fx-proto-.*',
      'host-protocol-mapping': ['example.com:fx-proto-file', 'www.example.com:fx-proto-web', 'protocol:http:fx-proto-web', 'gone.example:fx-proto-missing'],
    },
  });
  const f = ctx.extensions.protocolFactory();
  assert.equal(f.select('http://www.example.com/').extensionId, 'fx-proto-web', 'exact host');
  assert.equal(f.select('http://news.example.com/').extensionId, 'fx-proto-file', 'parent domain');
  assert.equal(f.select('http://example.com/').extensionId, 'fx-proto-file');
  assert.equal(f.select('http://other.org/').extensionId, 'fx-proto-web', 'protocol:http mapping beats protocolName order');
  assert.equal(f.select('https://other.org/').extensionId, 'fx-proto-web');
  assert.equal(f.select('http://gone.example/').extensionId, 'fx-proto-web', 'a mapping to an inactive extension falls through');
  assert.ok(logged(ctx).some((m) => m.startsWith('host-protocol-mapping names "fx-proto-missing", which is not an active Protocol extension (no discovered plugin declares it)')), logged(ctx).join('\n'));
});

test('mapping entries may name <plugin>:<name> extension ids; a malformed entry is a config error', () => {
  const cand = (id: string, schemes: string[]) => ({ extensionId: id, schemes, get: async () => ({}) as never });
  const f = new ProtocolFactory([cand('proto:a', ['http']), cand('proto:b', ['http'])], ['slow.example:proto:b', 'protocol:http:proto:a']);
  assert.equal(f.select('http://slow.example/').extensionId, 'proto:b');
  assert.equal(f.select('http://fast.example/').extensionId, 'proto:a');
  assert.throws(() => new ProtocolFactory([], ['nonsense']), (err: any) => err.code === 'NUTCH_CONFIG_INVALID_VALUE' && /host-protocol-mapping/.test(err.message) && /"nonsense"/.test(err.message));
});

test('selecting a protocol does not instantiate it; getProtocol does, once', async (t) => {
  resetRecorder();
  const ctx = fixtureContext(t, { pluginFolders: [pluginFixture('protocols')], config: { 'plugin.includes': 'fx-proto-web' } });
  const f = ctx.extensions.protocolFactory();
  f.select('http://a.example/');
  assert.deepEqual([...ctx.plugins.startedPlugins()], []);
  const p1 = await f.getProtocol('http://a.example/');
  const p2 = await f.getProtocol('https://b.example/');
  assert.equal(p1, p2);
  assert.deepEqual([...ctx.plugins.startedPlugins()], ['fx-proto-web']);
});

test('host-protocol-mapping url:<regex>=<extension-id>: checked before the host mapping; bad entries name the property', (t) => {
  const ctx = fixtureContext(t, {
    pluginFolders: [pluginFixture('protocols')],
    config: {
      'plugin.includes': 'fx-proto-.*',
      'host-protocol-mapping': ['url:^https?://www\\.example\\.com/app/=fx-proto-file', 'url:[?&]render=1(&|$)=fx-proto-alt', 'www.example.com:fx-proto-web'],
    },
  });
  const f = ctx.extensions.protocolFactory();
  assert.equal(f.select('http://www.example.com/app/x').extensionId, 'fx-proto-file', 'the url regex wins over the exact host');
  assert.equal(f.select('http://www.example.com/other').extensionId, 'fx-proto-web');
  assert.equal(f.select('http://a.org/p?render=1').extensionId, 'fx-proto-alt', 'the last = separates the id');
  for (const [entry, reason] of [['url:=fx-proto-web', /is not url:<regex>=<extension-id>/], ['url:abc', /is not url:<regex>=<extension-id>/], ['url:(unclosed=fx-proto-web', /Invalid regular expression/]] as const) {
    assert.throws(() => new ProtocolFactory([], [entry]), (e: { code: string; message: string }) => e.code === 'NUTCH_CONFIG_INVALID_VALUE' && /"host-protocol-mapping"/.test(e.message) && reason.test(e.message));
  }
});

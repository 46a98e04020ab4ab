/**
 * The address policy against DNS rebinding (issue 18): a host name that first resolves to an allowed
 * address and then to a denied one. The guarded connector (core/protocol/guarded-connector.ts) asks the policy's
 * lookup on every new connection, so the second answer is refused before connecting; and a lookup that
 * lies (answers after the check differ from what is connected to) is caught by the check of the
 * connected socket's peer address, before a byte is written. Two real HTTP servers on one port of
 * 127.0.0.2 (the allowed exception) and 127.0.0.3 (denied as loopback); the name never reaches real DNS.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { LookupAddress } from 'node:dns';
import { Agent, request } from 'undici';
import { AddressPolicy, type AddressResolver } from '../../core/protocol/address-policy.js';
import { loadConfiguration } from '../../core/config/index.js';
import { guardedConnector } from '../../core/protocol/guarded-connector.js';
import { tempDir } from '../helpers/temp-dir.js';

interface Site {
  port: number;
  /** Requests each server answered, by address. */
  requests: Map<string, number>;
  /** TCP connections each server accepted, by address. */
  connections: Map<string, number>;
}

function listen(server: Server, address: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => resolve((server.address() as { port: number }).port));
  });
}

/** One server on 127.0.0.2 and one on 127.0.0.3, same port (as one name's two DNS answers would be). */
async function twoAddressesOnePort(t: TestContext): Promise<Site> {
  const requests = new Map<string, number>();
  const connections = new Map<string, number>();
  for (let attempt = 0; ; attempt++) {
    const servers = ['127.0.0.2', '127.0.0.3'].map((address) => {
      const s = createServer((req, res) => {
        requests.set(address, (requests.get(address) ?? 0) + 1);
        res.end(`served by ${address}`);
      });
      s.on('connection', () => connections.set(address, (connections.get(address) ?? 0) + 1));
      return s;
    });
    const port = await listen(servers[0]!, '127.0.0.2', 0);
    try {
      await listen(servers[1]!, '127.0.0.3', port);
    } catch (err) {
      servers[0]!.close();
      if (attempt < 5) continue; // that port is taken on 127.0.0.3: try another
      throw err;
    }
    t.after(() => Promise.all(servers.map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); }))));
    return { port, requests, connections };
  }
}

const policy = (resolve: AddressResolver) => AddressPolicy.fromConf(loadConfiguration({ defines: { 'http.address.deny': 'loopback', 'http.address.allow': '127.0.0.2' }, cwd: tempDir(), env: {} }), resolve)!;

/** One request over a fresh connection through protocol-http's guarded connector. */
async function get(p: AddressPolicy, url: string): Promise<string> {
  const agent = new Agent({ connect: guardedConnector(p, { timeout: 2000 }) });
  try {
    const res = await request(url, { dispatcher: agent });
    return await res.body.text();
  } finally {
    await agent.close();
  }
}

function deniedCode(err: unknown): string | undefined {
  for (let e = err as { code?: string; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) if (e.code === 'NUTCH_ADDRESS_DENIED') return e.code;
  return (err as { code?: string }).code;
}

test('DNS rebinding: a name that re-resolves to a denied address is refused on the next connection; nothing reaches it', async (t) => {
  const site = await twoAddressesOnePort(t);
  const answers = ['127.0.0.2', '127.0.0.3', '127.0.0.3'];
  const asked: string[] = [];
  const rebinding: AddressResolver = (hostname, _options, callback) => {
    asked.push(hostname);
    const address = answers[Math.min(asked.length - 1, answers.length - 1)]!;
    callback(null, [{ address, family: 4 } satisfies LookupAddress]);
  };
  const p = policy(rebinding);
  const url = `http://rebind.invalid:${site.port}/`;
  assert.equal(await get(p, url), 'served by 127.0.0.2', 'the first answer is the allowed exception');
  for (let i = 0; i < 2; i++) {
    await assert.rejects(get(p, url), (err) => deniedCode(err) === 'NUTCH_ADDRESS_DENIED', 'the rebound answer is refused');
  }
  assert.deepEqual(asked, ['rebind.invalid', 'rebind.invalid', 'rebind.invalid'], 'every connection resolves again');
  assert.equal(site.connections.get('127.0.0.3'), undefined, 'no connection was even opened to the denied address');
  assert.equal(site.requests.get('127.0.0.2'), 1);
});

test('a lookup that answers one address and connects to another is caught on the socket: no request is written to the denied server', async (t) => {
  const site = await twoAddressesOnePort(t);
  const p = policy((_h, _o, callback) => callback(null, [{ address: '127.0.0.2', family: 4 }]));
  // the connection goes where this lookup says, past the policy's own filtering: only the peer check is left
  Object.defineProperty(p, 'lookup', { value: (_h: string, o: { all?: boolean }, cb: (e: null, a: string | LookupAddress[], f?: number) => void) => (o.all ? cb(null, [{ address: '127.0.0.3', family: 4 }]) : cb(null, '127.0.0.3', 4)) });
  await assert.rejects(get(p, `http://liar.invalid:${site.port}/`), (err) => deniedCode(err) === 'NUTCH_ADDRESS_DENIED');
  assert.equal(site.requests.get('127.0.0.3'), undefined, 'the denied server got no request');
});

/**
 * The connections every HTTP-speaking protocol makes, configured once from Nutch's properties: a
 * keep-alive agent whose connector applies the address policy (http.address.deny / allow, checked on
 * every DNS answer and on the connected socket), and — when http.proxy.host is set — a proxy
 * (http.proxy.port, http.proxy.username / password as Basic credentials) for every host not in
 * http.proxy.exception.list. protocol-http fetches through it, and protocol-playwright routes all of
 * Chromium's requests through it, so both honour the same SSRF guard and proxy.
 */
import { isIP } from 'node:net';
import type { Agent, ProxyAgent, Dispatcher } from 'undici';
import type { Configuration } from '../config/configuration.js';
import { AddressPolicy, bareHost } from './address-policy.js';
import { guardedConnector } from './guarded-connector.js';
import { undiciFetchParts, undiciModule } from './undici-module.js';

export class HttpDispatchers {
  readonly policy: AddressPolicy | null;
  readonly proxy: ProxyAgent | null;
  private readonly agent: Agent;
  private readonly proxyExceptions: ReadonlySet<string>;

  constructor(conf: Configuration, timeoutMs = conf.getInt('http.timeout', 10_000)) {
    const { Agent } = undiciFetchParts();
    const rejectUnauthorized = conf.getBoolean('http.tls.certificates.check', false);
    const timeouts = { connect: { timeout: timeoutMs, rejectUnauthorized }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, keepAliveTimeout: 10_000 };
    this.policy = AddressPolicy.fromConf(conf);
    const connect = this.policy ? guardedConnector(this.policy, timeouts.connect) : timeouts.connect;
    this.agent = new Agent({ ...timeouts, connect, pipelining: 1 });
    const proxyHost = conf.getString('http.proxy.host').trim();
    if (proxyHost) {
      const user = conf.getString('http.proxy.username');
      const pass = conf.getString('http.proxy.password');
      // the proxy agent tunnels HTTPS with the `connect` API, which undici's entry point installs
      const { ProxyAgent } = undiciModule();
      this.proxy = new ProxyAgent({
        uri: `http://${proxyHost}:${conf.getInt('http.proxy.port', 8080)}`,
        ...(user ? { token: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` } : {}),
        requestTls: { rejectUnauthorized },
        ...timeouts,
      });
    } else this.proxy = null;
    this.proxyExceptions = new Set(conf.getStrings('http.proxy.exception.list').flatMap((s) => s.split(',')).map((s) => s.trim().toLowerCase()).filter(Boolean));
  }

  /** The proxy, unless the host is an exception; else the guarded direct agent. Throws NUTCH_ADDRESS_DENIED for a refused IP literal sent to the proxy. */
  dispatcherFor(url: URL): Dispatcher {
    if (this.proxy && !this.proxyExceptions.has(url.hostname.toLowerCase())) {
      // the proxy resolves names itself: only an address literal can be checked here
      if (this.policy && isIP(bareHost(url.hostname))) this.policy.check(bareHost(url.hostname), url.hostname);
      return this.proxy;
    }
    return this.agent;
  }

  /** undici's `request()` through dispatcherFor(url): what protocol-http sends every request with. */
  request(url: URL, opts: Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & { method?: Dispatcher.HttpMethod }): Promise<Dispatcher.ResponseData> {
    return undiciFetchParts().request(url, { ...opts, dispatcher: this.dispatcherFor(url) });
  }

  async close(): Promise<void> {
    await Promise.all([this.agent.close(), this.proxy?.close()]);
  }
}

/**
 * protocol-playwright: Nutch's protocol-selenium / protocol-htmlunit job. The page's own document is
 * fetched once, by Chromium's network stack, without following redirects; a redirect, an error status
 * or a document that is not HTML is answered as protocol-http would (Nutch's status mapping, the bytes
 * as served, nothing rendered), and an HTML document is handed to the page, its scripts run, and the
 * rendered DOM (UTF-8) is the Content that parse-html reads. robots.txt is read by the shared parser
 * over plain HTTP and politeness stays the fetcher's: this plugin only changes how one page is fetched.
 * Select it per host or per URL regex with host-protocol-mapping; docs/fetching.md.
 */
import { request } from 'undici';
import type { Page } from 'playwright-core';
import {
  ContentMeta, HttpDispatchers, ProtocolStatusCode, RobotRulesParser, isAddressDenied, agentString, baseHeaders, createContent, effectiveContentLimit, headersToMetadata, protocolStatus, statusForCode,
  type Configuration, type ContentLease, type CrawlDatum, type Logger, type PluginContext, type Protocol, type ProtocolOutput, type RobotRules, type RobotsFetch,
} from '../../sdk/plugin.js';
import { BrowserPool } from './browser-pool.js';
import { isRendered, routeDocument, type DocumentResponse, type RouteOptions } from './document-route.js';
import { guardedFetch, NO_BROWSER_NETWORK_ARG } from './guarded-fetch.js';

/** The protocols of each crawler (keyed by its Configuration), closed by the plugin's stop(). */
const openProtocols = new WeakMap<Configuration, Set<PlaywrightProtocol>>();

/** Closes every browser this crawler's protocol-playwright instances launched. */
export async function closeProtocolsOf(conf: Configuration): Promise<void> {
  const set = openProtocols.get(conf);
  openProtocols.delete(conf);
  await Promise.all([...(set ?? [])].map((p) => p.close()));
}

export class PlaywrightProtocol implements Protocol {
  private readonly log: Logger;
  private readonly pool: BrowserPool;
  private readonly timeoutMs: number;
  private readonly waitUntil: 'load' | 'domcontentloaded' | 'networkidle' | 'commit';
  private readonly renderWaitMs: number;
  private readonly blocked: Set<string>;
  private readonly contentLimit: number;
  private readonly headers: Record<string, string>;
  private readonly robots: RobotRulesParser;
  private readonly httpTimeout: number;
  /** Set when http.address.deny or http.proxy.host is: every request then goes through protocol-http's connections. */
  private readonly dispatchers: HttpDispatchers | null;
  private readonly refusedHosts = new Set<string>();

  constructor(ctx: PluginContext) {
    const conf = ctx.conf;
    this.log = ctx.log;
    this.timeoutMs = conf.getInt('playwright.page.timeout', 30_000);
    this.waitUntil = conf.getString('playwright.wait.until') as PlaywrightProtocol['waitUntil'];
    this.renderWaitMs = conf.getInt('playwright.render.wait', 0);
    this.blocked = new Set(conf.getStrings('playwright.block.resources').map((s) => s.toLowerCase()));
    this.contentLimit = effectiveContentLimit(conf, conf.getInt('http.content.limit', 1_048_576));
    this.httpTimeout = conf.getInt('http.timeout', 10_000);
    this.headers = baseHeaders(conf);
    const { 'user-agent': _ua, 'accept-encoding': _enc, ...extra } = this.headers;
    const dispatchers = new HttpDispatchers(conf, this.httpTimeout);
    if (dispatchers.policy || dispatchers.proxy) this.dispatchers = dispatchers;
    else {
      this.dispatchers = null;
      void dispatchers.close();
    }
    this.pool = new BrowserPool({
      executablePath: conf.getString('playwright.executable.path'),
      args: [...conf.getStrings('playwright.launch.args'), ...(this.dispatchers ? [NO_BROWSER_NETWORK_ARG] : [])],
      pagesMax: conf.getInt('playwright.pages.max', 4),
      maxPagesPerBrowser: conf.getInt('playwright.browser.max.pages', 500),
      userAgent: agentString(conf),
      extraHeaders: extra,
    });
    this.robots = new RobotRulesParser(conf, ctx.log);
    // the fetcher does not close protocols: the plugin's stop() does, when the crawler closes
    let set = openProtocols.get(conf);
    if (!set) openProtocols.set(conf, (set = new Set()));
    set.add(this);
  }

  /** Browsers launched so far: one for a whole crawl unless playwright.browser.max.pages retires it. */
  get browserLaunches(): number {
    return this.pool.launches;
  }

  async getProtocolOutput(url: string, datum: CrawlDatum, opts: { signal?: AbortSignal; memory?: ContentLease } = {}): Promise<ProtocolOutput> {
    let slot: Awaited<ReturnType<BrowserPool['acquire']>>;
    try {
      slot = await this.pool.acquire(opts.signal);
    } catch (err) {
      if ((err as { code?: string }).code === 'NUTCH_BROWSER_UNAVAILABLE') throw err;
      return failed(describe(err));
    }
    const onAbort = () => void slot.release();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.render(url, datum, slot.page, opts.memory);
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      await slot.release();
    }
  }

  private async render(url: string, datum: CrawlDatum, page: Page, memory?: ContentLease): Promise<ProtocolOutput> {
    const started = Date.now();
    const doc = await routeDocument(page, this.routeOptions());
    // the document is bounded by http.timeout, as any fetch; only the rendering counts against playwright.page.timeout
    try {
      await page.goto(url, { waitUntil: 'commit', timeout: this.httpTimeout });
    } catch (err) {
      if (!doc.response) {
        // a refused address is ACCESS_DENIED, as protocol-http reports it
        if (isAddressDenied(doc.error)) return { content: null, status: protocolStatus(ProtocolStatusCode.ACCESS_DENIED, deniedMessage(doc.error)) };
        return failed(describe(doc.error ?? err));
      }
    }
    let timedOut = false;
    if (isRendered(doc.response)) {
      const waited = await this.waitForRendering(page);
      if (waited !== 'done' && waited !== 'timeout') return failed(`rendering ${url} failed: ${describe(waited.error)}`);
      timedOut = waited === 'timeout';
    }
    const served = doc.response;
    if (!served) return failed(`no response for ${url}`);
    datum.metaData._rs_ = [String(Date.now() - started)];
    return this.output(url, served, page, timedOut, memory);
  }

  private routeOptions(): RouteOptions {
    if (!this.dispatchers) return { timeoutMs: this.timeoutMs, blocked: this.blocked };
    return {
      timeoutMs: this.timeoutMs,
      blocked: this.blocked,
      fetch: guardedFetch(this.dispatchers, this.httpTimeout),
      limitBytes: this.contentLimit,
      onRefused: (url, err) => {
        const host = (() => { try { return new URL(url).host; } catch { return url.slice(0, 100); } })();
        if (this.refusedHosts.has(host)) return;
        this.refusedHosts.add(host);
        this.log.warn(`protocol-playwright: a page's request to ${url.slice(0, 300)} failed: ${describe(err)}`, { code: isAddressDenied(err) ? 'NUTCH_ADDRESS_DENIED' : undefined });
      },
    };
  }

  /** playwright.wait.until, then playwright.render.wait, both within playwright.page.timeout. */
  private async waitForRendering(page: Page): Promise<'done' | 'timeout' | { error: unknown }> {
    const renderStart = Date.now();
    try {
      if (this.waitUntil !== 'commit') await page.waitForLoadState(this.waitUntil, { timeout: this.timeoutMs });
      const left = this.timeoutMs - (Date.now() - renderStart);
      if (this.renderWaitMs > 0 && left > 0) await page.waitForTimeout(Math.min(this.renderWaitMs, left));
      return 'done';
    } catch (err) {
      return (err as Error).name === 'TimeoutError' ? 'timeout' : { error: err };
    }
  }

  /** The Content: the rendered DOM (UTF-8) for a rendered page, else the bytes as served; status as protocol-http's. */
  private async output(url: string, served: DocumentResponse, page: Page, timedOut: boolean, memory?: ContentLease): Promise<ProtocolOutput> {
    const metadata = headersToMetadata(served.headers);
    metadata[ContentMeta.RESPONSE_CODE] = [String(served.status)];
    let bytes: Uint8Array = served.body;
    let contentType = served.headers['content-type'] ?? '';
    if (isRendered(served)) {
      let html: string;
      try {
        html = await page.content();
      } catch (err) {
        return failed(`rendering ${url} failed: ${describe(err)}`);
      }
      bytes = Buffer.from(html, 'utf8');
      // the DOM is serialised as UTF-8, whatever the page was served in: say so, or parse-html would decode it as served
      contentType = 'text/html; charset=utf-8';
      metadata['Content-Type'] = [contentType];
      delete metadata['Content-Length'];
      delete metadata['Content-Encoding'];
      metadata['X-Nutch-Rendered-By'] = ['protocol-playwright'];
      if (timedOut) metadata[ContentMeta.TRUNCATED] = ['TIME'];
    }
    if (bytes.length > this.contentLimit) {
      bytes = bytes.subarray(0, this.contentLimit);
      metadata[ContentMeta.TRUNCATED] = ['LENGTH'];
    }
    if (memory && !memory.reserve(bytes.length)) return failed(`content budget exhausted (fetcher.content.budget) while rendering ${url}`);
    if (timedOut) this.log.debug(`${url}: playwright.page.timeout (${this.timeoutMs} ms) reached; the DOM rendered so far is kept`);
    const status = statusForCode(served.status, url, served.headers.location);
    const lm = Date.parse(served.headers['last-modified'] ?? '');
    if (Number.isFinite(lm)) status.lastModified = lm;
    return { content: createContent({ url, baseUrl: url, content: new Uint8Array(bytes), contentType, metadata }), status };
  }

  getRobotRules(url: string, _datum: CrawlDatum | null, opts: { signal?: AbortSignal; allowUrl?: (url: string) => boolean } = {}): Promise<RobotRules> {
    return this.robots.getRobotRules(url, this.fetchRobots, opts);
  }

  /** robots.txt over plain HTTP (no browser), read up to maxBytes. */
  private readonly fetchRobots: RobotsFetch = async (url, { signal, maxBytes }) => {
    const dispatcher = this.dispatchers?.dispatcherFor(new URL(url));
    const res = await request(url, { method: 'GET', headers: { 'user-agent': this.headers['user-agent']! }, signal, headersTimeout: this.httpTimeout, bodyTimeout: this.httpTimeout, ...(dispatcher ? { dispatcher } : {}) });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= maxBytes) {
        res.body.destroy();
        break;
      }
    }
    const location = res.headers.location;
    return { code: res.statusCode, body: new Uint8Array(Buffer.concat(chunks).subarray(0, maxBytes)), location: Array.isArray(location) ? location[0] : location };
  };

  private closing: Promise<void> | null = null;

  /** Idempotent: the plugin's stop() and the owner may both close it. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.pool.close();
      await this.dispatchers?.close();
    })();
    return this.closing;
  }
}

function failed(message: string): ProtocolOutput {
  return { content: null, status: protocolStatus(ProtocolStatusCode.EXCEPTION, message) };
}

function deniedMessage(err: unknown): string {
  for (let e = err as { code?: unknown; cause?: unknown; message?: string } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e.code === 'NUTCH_ADDRESS_DENIED') return String(e.message);
  }
  return describe(err);
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string };
  return `${e?.name ?? 'Error'}: ${String(e?.message ?? err).split('\n')[0]}`.slice(0, 500);
}

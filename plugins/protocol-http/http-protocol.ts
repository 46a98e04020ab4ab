/**
 * Nutch's protocol-http on undici 7: one keep-alive pool per origin (undici's Agent keeps one Pool
 * per origin), http.timeout for connect, headers and body idle time, http.time.limit and
 * http.content.limit on the decoded body, gzip/deflate/br, If-Modified-Since, http.agent.* headers,
 * an optional proxy (http.proxy.*, bypassed for http.proxy.exception.list), response headers as
 * Content metadata, Nutch's code -> ProtocolStatus mapping, and robots.txt via the shared parser.
 */
import {
  HttpDispatchers, ContentMeta, statusForCode, baseHeaders, canonicalHeaderName, firstHeader, headersToMetadata, ProtocolStatusCode, RobotRulesParser, isAddressDenied, createContent, effectiveContentLimit, protocolStatus,
  type ContentLease, type CrawlDatum, type PluginContext, type Protocol, type ProtocolOutput, type RobotRules, type RobotsFetch, type Configuration, type Logger,
} from '../../sdk/plugin.js';
import { readBody } from './body-reader.js';
import { sniffContentType } from './content-type.js';

/** Datum metadata key of the response time in ms (Nutch's RESPONSE_TIME `_rs_`). */
export const RESPONSE_TIME_KEY = '_rs_';
/** Content metadata key of the stored request (store.http.request), Nutch's `_request_`. */
export const REQUEST_KEY = '_request_';
/** Content metadata key holding a 429/503 Retry-After value in ms, read by the fetcher. */
export const RETRY_AFTER_KEY = 'Retry-After';

export class Http implements Protocol {
  private readonly conf: Configuration;
  private readonly log: Logger;
  private readonly timeout: number;
  private readonly timeLimitMs: number;
  private readonly contentLimit: number;
  private readonly headers: Record<string, string>;
  private readonly ifModifiedSince: boolean;
  private readonly storeResponseTime: boolean;
  private readonly storeRequest: boolean;
  private readonly dispatchers: HttpDispatchers;
  private readonly robots: RobotRulesParser;

  constructor(ctx: PluginContext) {
    this.conf = ctx.conf;
    this.log = ctx.log;
    this.timeout = ctx.conf.getInt('http.timeout', 10_000);
    const limit = ctx.conf.getFloat('http.time.limit', 120);
    this.timeLimitMs = limit < 0 ? Infinity : limit * 1000;
    // -1 or a huge limit still stops at fetcher.content.ceiling: no response is ever held whole
    this.contentLimit = effectiveContentLimit(ctx.conf, ctx.conf.getInt('http.content.limit', 1_048_576));
    this.headers = baseHeaders(ctx.conf);
    this.ifModifiedSince = ctx.conf.getBoolean('http.enable.if.modified.since.header', true);
    this.storeResponseTime = ctx.conf.getBoolean('http.store.responsetime', true);
    this.storeRequest = ctx.conf.getBoolean('store.http.request', false);
    // the SSRF guard sits in the connector, so pages, redirects, robots.txt and its redirects all pass it
    this.dispatchers = new HttpDispatchers(ctx.conf, this.timeout);
    this.robots = new RobotRulesParser(ctx.conf, ctx.log);
  }

  async getProtocolOutput(url: string, datum: CrawlDatum, opts: { signal?: AbortSignal; memory?: ContentLease } = {}): Promise<ProtocolOutput> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return { content: null, status: protocolStatus(ProtocolStatusCode.EXCEPTION, `malformed URL ${url.slice(0, 200)}`) };
    }
    const headers = { ...this.headers };
    if (this.ifModifiedSince && datum.modifiedTime > 0) headers['if-modified-since'] = new Date(datum.modifiedTime).toUTCString();
    const started = Date.now();
    const deadline = started + this.timeLimitMs;
    try {
      const res = await this.dispatchers.request(u, { method: 'GET', headers, signal: opts.signal });
      const encoding = firstHeader(res.headers, 'content-encoding') ?? '';
      const declared = Number(firstHeader(res.headers, 'content-length'));
      const reserve = opts.memory ? (n: number) => opts.memory!.reserve(n) : undefined;
      const body = await readBody(res.body as never, encoding, { maxBytes: this.contentLimit, deadline, expectedBytes: Number.isSafeInteger(declared) ? declared : undefined, reserve });
      if (body.refused) {
        // other responses hold the rest of the budget: drop this one, the fetcher retries it later
        return { content: null, status: protocolStatus(ProtocolStatusCode.EXCEPTION, `content budget exhausted (fetcher.content.budget) while reading ${url}`) };
      }
      if (body.error && body.bytes.length === 0) throw body.error;
      const metadata = headersToMetadata(res.headers);
      metadata[ContentMeta.RESPONSE_CODE] = [String(res.statusCode)];
      if (encoding) {
        // the bytes are decoded: their length and encoding no longer match the wire headers
        metadata['Content-Encoding-Original'] = [encoding];
        delete metadata['Content-Encoding'];
      }
      if (body.truncated) {
        metadata[ContentMeta.TRUNCATED] = [body.truncated];
        this.log.debug(`content of ${url} truncated (${body.truncated}) at ${body.bytes.length} bytes`);
      }
      if (res.statusCode === 429 || res.statusCode === 503) {
        const ms = parseRetryAfter(firstHeader(res.headers, 'retry-after'));
        if (ms !== null) metadata[RETRY_AFTER_KEY] = [String(ms)];
      }
      if (this.storeRequest) metadata[REQUEST_KEY] = [requestText(u, headers)];
      if (this.storeResponseTime) datum.metaData[RESPONSE_TIME_KEY] = [String(Date.now() - started)];
      const content = createContent({
        url,
        baseUrl: url,
        content: body.bytes,
        contentType: firstHeader(res.headers, 'content-type') || sniffContentType(url, body.bytes),
        metadata,
      });
      const status = statusForCode(res.statusCode, url, firstHeader(res.headers, 'location'));
      const lm = Date.parse(firstHeader(res.headers, 'last-modified') ?? '');
      if (Number.isFinite(lm)) status.lastModified = lm;
      return { content, status };
    } catch (err) {
      if (isAddressDenied(err)) return { content: null, status: protocolStatus(ProtocolStatusCode.ACCESS_DENIED, deniedMessage(err)) };
      return { content: null, status: protocolStatus(ProtocolStatusCode.EXCEPTION, describeError(err)) };
    }
  }

  getRobotRules(url: string, _datum: CrawlDatum | null, opts: { signal?: AbortSignal; allowUrl?: (url: string) => boolean } = {}): Promise<RobotRules> {
    return this.robots.getRobotRules(url, this.fetchRobots, opts);
  }

  private readonly fetchRobots: RobotsFetch = async (url, { signal, maxBytes }) => {
    const u = new URL(url);
    const res = await this.dispatchers.request(u, { method: 'GET', headers: this.headers, signal });
    const body = await readBody(res.body as never, firstHeader(res.headers, 'content-encoding') ?? '', { maxBytes, deadline: Date.now() + this.timeLimitMs });
    if (body.error && body.bytes.length === 0) throw body.error;
    return { code: res.statusCode, body: body.bytes, location: firstHeader(res.headers, 'location') };
  };

  async close(): Promise<void> {
    await this.dispatchers.close();
  }
}

/** Retry-After as delta-seconds or an HTTP date -> ms from now; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

/** The NUTCH_ADDRESS_DENIED message, wherever undici wrapped it. */
function deniedMessage(err: unknown): string {
  for (let e = err as { code?: unknown; cause?: unknown; message?: string } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e.code === 'NUTCH_ADDRESS_DENIED') return String(e.message);
  }
  return describeError(err);
}

function describeError(err: unknown): string {
  const e = err as { code?: string; message?: string; name?: string };
  const code = e?.code ?? e?.name ?? 'Error';
  return `${code}: ${e?.message ?? String(err)}`.slice(0, 500);
}

/** The request as sent: request line, Host, then the headers undici was given (it adds only connection framing). */
function requestText(u: URL, headers: Record<string, string>): string {
  const lines = [`GET ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`${canonicalHeaderName(k)}: ${v}`);
  return lines.join('\r\n') + '\r\n\r\n';
}

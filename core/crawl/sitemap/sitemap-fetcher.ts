/**
 * Fetches and reads sitemaps as Nutch's SitemapMapper: a sitemap URL is filtered and normalised,
 * fetched through the Protocol plugin (redirects followed up to sitemap.redir.max), parsed, and a
 * sitemap index leads to its sitemaps in turn (each sitemap read once per run, so an index naming
 * itself ends). A host gives the sitemaps its robots.txt lists (`Sitemap:` lines), or
 * `<origin>/sitemap.xml` when it lists none and sitemap.url.default.sitemap.xml is true.
 */
import type { NutchContext } from '../context.js';
import { count, type Counters } from '../progress.js';
import { ContentMeta } from '../../model/content.js';
import { createCrawlDatum, CrawlStatus } from '../../model/crawl-datum.js';
import { ProtocolStatusCode } from '../../model/protocol-status.js';
import type { ProtocolFactory } from '../../extension-points/protocol.js';
import { parseSitemap, SitemapFormatError, type SitemapUrl } from './sitemap-parser.js';

export interface SitemapFetcherOptions {
  strict: boolean;
  maxBytes: number;
  maxRedirects: number;
  tryDefaultSitemapXml: boolean;
  filterNormalize: (url: string) => string | null;
  counters: Counters;
  signal?: AbortSignal;
  /** Receives the entries of each sitemap read. */
  onUrls(urls: SitemapUrl[], sitemap: string): void;
}

export class SitemapFetcher {
  private readonly seen = new Set<string>();
  private readonly protocols: ProtocolFactory;

  constructor(private readonly ctx: NutchContext, private readonly o: SitemapFetcherOptions) {
    this.protocols = ctx.extensions.protocolFactory();
  }

  /** A host name (as in a -sitemapUrls file or the HostDb) or an origin (`http://host:port`). */
  async fromHost(host: string): Promise<void> {
    const candidates = /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? [`${host.replace(/\/+$/, '')}/`] : ['http', 'https', 'ftp'].map((s) => `${s}://${host}/`).concat(`file:/${host}/`);
    let root: string | null = null;
    for (const c of candidates) if ((root = this.o.filterNormalize(c)) !== null) break;
    if (root === null) {
      count(this.o.counters, 'filtered_records');
      return;
    }
    let sitemaps: string[] = [];
    try {
      const protocol = await this.protocols.getProtocol(root);
      const rules = await protocol.getRobotRules?.(root, null, { signal: this.o.signal });
      sitemaps = rules?.getSitemaps?.() ?? [];
    } catch (err) {
      this.ctx.log.warn(`sitemap: robots.txt of ${root} could not be read: ${(err as Error).message}`);
    }
    if (sitemaps.length === 0 && this.o.tryDefaultSitemapXml) sitemaps = [`${root}sitemap.xml`];
    for (const s of sitemaps) {
      count(this.o.counters, 'sitemaps_from_hostname');
      const url = this.o.filterNormalize(s);
      if (url === null) count(this.o.counters, 'filtered_sitemaps_from_hostname');
      else await this.fetchSitemap(url);
    }
  }

  /** A sitemap URL given by the user (a -sitemapUrls line). */
  async fromSeed(url: string): Promise<void> {
    const u = this.o.filterNormalize(url);
    if (u === null) {
      count(this.o.counters, 'filtered_records');
      return;
    }
    count(this.o.counters, 'sitemap_seeds');
    await this.fetchSitemap(u);
  }

  private async fetchSitemap(first: string): Promise<void> {
    if (this.o.signal?.aborted || this.seen.has(first)) return;
    this.seen.add(first);
    let url = first;
    try {
      const protocol = await this.protocols.getProtocol(url);
      const datum = createCrawlDatum({ status: CrawlStatus.STATUS_INJECTED });
      let out = await protocol.getProtocolOutput(url, datum, { signal: this.o.signal });
      for (let redirects = this.o.maxRedirects; redirects > 0 && (out.status.code === ProtocolStatusCode.MOVED || out.status.code === ProtocolStatusCode.TEMP_MOVED); redirects--) {
        const target = out.status.args[0] ? this.o.filterNormalize(out.status.args[0]) : null;
        if (target === null) break;
        url = target;
        out = await protocol.getProtocolOutput(url, datum, { signal: this.o.signal });
      }
      if (out.status.code !== ProtocolStatusCode.SUCCESS || !out.content) {
        count(this.o.counters, 'failed_fetches');
        this.ctx.log.error(`sitemap: error while fetching the sitemap. Status code: ${out.status.code} for ${url}`);
        return;
      }
      if (out.content.metadata[ContentMeta.TRUNCATED]) {
        count(this.o.counters, 'truncated_sitemaps');
        this.ctx.log.warn(`sitemap: ${url} was truncated (${out.content.metadata[ContentMeta.TRUNCATED]![0]}) by http.content.limit; the URLs before the cut are kept — raise http.content.limit for large sitemaps`);
      }
      const parsed = parseSitemap(out.content.content, url, { strict: this.o.strict, maxBytes: this.o.maxBytes });
      if (parsed.overLimit) {
        count(this.o.counters, 'urls_over_limit', parsed.overLimit);
        this.ctx.log.warn(`sitemap: ${url} lists more than 50,000 entries; ${parsed.overLimit} ignored (sitemaps.org limit)`);
      }
      if (parsed.kind === 'index') {
        count(this.o.counters, 'sitemap_indexes');
        this.ctx.log.info(`sitemap: parsing sitemap index ${url} (${parsed.sitemaps.length} sitemaps)`);
        for (const child of parsed.sitemaps) {
          const c = this.o.filterNormalize(child);
          if (c === null) count(this.o.counters, 'filtered_records');
          else await this.fetchSitemap(c);
        }
        return;
      }
      count(this.o.counters, 'sitemaps');
      if (parsed.rejected) {
        count(this.o.counters, 'invalid_urls', parsed.rejected);
        this.ctx.log.info(`sitemap: ${url}: ${parsed.rejected} URLs rejected (not absolute or, with strict parsing, not under the sitemap's location)`);
      }
      this.o.onUrls(parsed.urls, url);
    } catch (err) {
      if (this.o.signal?.aborted) return;
      count(this.o.counters, err instanceof SitemapFormatError ? 'unparsable_sitemaps' : 'failed_fetches');
      this.ctx.log.warn(`sitemap: ${url}: ${(err as Error).message}`);
    }
  }
}

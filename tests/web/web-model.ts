/**
 * The deterministic model behind the local test web: which hosts exist, which pages each host has,
 * and which links each page carries. Pure (no sockets), so a bench that runs the servers in a child
 * process can still answer `linksOf(url)` in the parent from the same options.
 */
import type { IncomingMessage } from 'node:http';

export interface RobotsSpec {
  /** Paths disallowed for every agent (default ['/private/']). */
  disallow?: string[];
  /** Crawl-delay in seconds, for every host or per host index; undefined = none. */
  crawlDelay?: number | ((host: number) => number | undefined);
  /** Fraction of internal links that point under the first disallowed path (default 0.05). */
  disallowedLinkRatio?: number;
  /** Replaces the generated robots.txt of a host; null = 404. */
  text?: (host: number) => string | null;
  /** HTTP status robots.txt answers with on a host (default 200; e.g. 403, 503). */
  status?: (host: number) => number | undefined;
}

export interface TestWebOptions {
  hosts: number;
  /** Pages per host, the home page `/` included. */
  pagesPerHost: number;
  linksPerPage: number;
  /** Fraction of links that go to another host (default 0.2). */
  externalLinkRatio?: number;
  /** Delay before each response starts, in ms (default 0). */
  latencyMs?: number;
  /** true = default robots.txt per host; an object tunes it; false/undefined = no robots.txt (404). */
  robots?: boolean | RobotsSpec;
  /** Fraction of internal links that go through a 301/302 redirect (default 0). */
  redirects?: number;
  /** Fraction of internal links that lead to a 404 (default 0). */
  notFoundRatio?: number;
  /** Approximate page size in bytes (default 4096; the bench uses 30 KB). */
  pageBytes?: number;
  /** PRNG seed (default 1). */
  seed?: number;
  /** Port for every host (default 0 = each server picks one). */
  port?: number;
  /** Index of the first loopback address: 127.0.0.<firstAddress> (default 2). */
  firstAddress?: number;
  /**
   * Serve sitemaps (default false): `/sitemap_index.xml` (an index naming the other two), `/sitemap.xml`
   * (plain XML: the even pages, plus one URL of another host that strict parsing rejects) and
   * `/sitemap-odd.xml.gz` (gzipped XML, served as application/gzip: the odd pages), all listed by a
   * `Sitemap:` line in robots.txt. Entries carry lastmod, changefreq and priority (sitemapEntry()).
   */
  sitemaps?: boolean;
  /** Extra files served on every host at their exact path (documents, feeds): a null contentType sends no Content-Type header. */
  files?: Record<string, TestWebFile>;
  /**
   * Holds a request until the promise it returns settles (undefined: answered at once): a test orders
   * one client's requests after another's (a crawl's after a worker's first) without timing.
   */
  hold?: (req: IncomingMessage) => Promise<void> | undefined;
}

export interface TestWebFile {
  contentType: string | null;
  body: Uint8Array | string;
}

export interface SitemapEntry {
  path: string;
  lastmod: string;
  changefreq: 'always' | 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly' | 'never';
  priority: number;
}

const CHANGEFREQS: SitemapEntry['changefreq'][] = ['daily', 'weekly', 'monthly', 'hourly', 'yearly'];

/** mulberry32: small, fast, deterministic. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The loopback address of host number n (0-based), skipping .0 and .255 in the last octet. */
export function hostAddress(n: number, first = 2): string {
  const k = first + n;
  if (k <= 254) return `127.0.0.${k}`;
  const idx = k - 255;
  return `127.0.${1 + Math.floor(idx / 254)}.${(idx % 254) + 1}`;
}

const WORDS = 'crawler fetch segment robots queue parse index link anchor host politeness delay content metadata signature score outlink inlink schedule protocol filter normalizer plugin extension search document title text web page server'.split(' ');

export class WebModel {
  readonly opts: Required<Omit<TestWebOptions, 'robots' | 'port'>> & { robots: RobotsSpec | null; port: number };
  private readonly fillerCache = new Map<number, string>();

  constructor(opts: TestWebOptions) {
    const robots = opts.robots === true ? {} : opts.robots ? opts.robots : null;
    this.opts = {
      externalLinkRatio: 0.2, latencyMs: 0, redirects: 0, notFoundRatio: 0, pageBytes: 4096, seed: 1, port: 0, firstAddress: 2, sitemaps: false, files: {}, hold: () => undefined,
      ...opts,
      robots,
    };
    if (opts.hosts < 1 || opts.pagesPerHost < 1) throw new Error('test web: hosts and pagesPerHost must be >= 1');
  }

  address(host: number): string {
    return hostAddress(host, this.opts.firstAddress);
  }

  disallowed(): string[] {
    return this.opts.robots ? this.opts.robots.disallow ?? ['/private/'] : [];
  }

  crawlDelay(host: number): number | undefined {
    const cd = this.opts.robots?.crawlDelay;
    return typeof cd === 'function' ? cd(host) : cd;
  }

  /** robots.txt of a host; `origin` (http://127.0.0.N:port) is needed for the Sitemap line. */
  robotsTxt(host: number, origin = ''): string | null {
    const spec = this.opts.robots;
    const sitemap = this.opts.sitemaps ? `Sitemap: ${origin}/sitemap_index.xml\n` : '';
    if (!spec) return sitemap ? `User-agent: *\nDisallow:\n\n${sitemap}` : null;
    if (spec.text) return spec.text(host);
    const lines = ['User-agent: *', ...this.disallowed().map((d) => `Disallow: ${d}`)];
    const delay = this.crawlDelay(host);
    if (delay !== undefined) lines.push(`Crawl-delay: ${delay}`);
    return lines.join('\n') + '\n' + sitemap;
  }

  /** The sitemap entry of a page (lastmod, changefreq and priority vary with the page number). */
  sitemapEntry(page: number): SitemapEntry {
    return {
      path: this.pagePath(page),
      lastmod: `2024-0${(page % 9) + 1}-1${page % 10}T0${page % 10}:30:00Z`,
      changefreq: CHANGEFREQS[page % CHANGEFREQS.length]!,
      priority: ((page % 10) + 1) / 10,
    };
  }

  /** Entries of `/sitemap.xml` (even pages) or `/sitemap-odd.xml.gz` (odd pages). */
  sitemapEntries(which: 'even' | 'odd'): SitemapEntry[] {
    const out: SitemapEntry[] = [];
    for (let p = which === 'even' ? 0 : 1; p < this.opts.pagesPerHost; p += 2) out.push(this.sitemapEntry(p));
    return out;
  }

  pagePath(page: number): string {
    return page === 0 ? '/' : `/page/${page}.html`;
  }

  /** Links of a page as paths or absolute URLs (other hosts: absolute, with `{host:N}` resolved by the caller). */
  links(host: number, page: number): { host: number; path: string }[] {
    const o = this.opts;
    const rnd = prng((o.seed * 1_000_003 + host * 7919 + page * 104_729) >>> 0);
    const out: { host: number; path: string }[] = [];
    const pick = () => Math.floor(rnd() * o.pagesPerHost);
    for (let i = 0; i < o.linksPerPage; i++) {
      const r = rnd();
      if (o.hosts > 1 && r < o.externalLinkRatio) {
        let other = Math.floor(rnd() * (o.hosts - 1));
        if (other >= host) other++;
        out.push({ host: other, path: this.pagePath(pick()) });
        continue;
      }
      const s = rnd();
      const target = pick();
      const dis = this.disallowed();
      const disRatio = o.robots ? o.robots.disallowedLinkRatio ?? 0.05 : 0;
      if (s < o.redirects) out.push({ host, path: `/redirect/${rnd() < 0.5 ? 301 : 302}/${target}` });
      else if (s < o.redirects + o.notFoundRatio) out.push({ host, path: `/missing/${target}.html` });
      else if (dis.length && s < o.redirects + o.notFoundRatio + disRatio) out.push({ host, path: `${dis[0]!.replace(/\/?$/, '/')}${target}.html` });
      else out.push({ host, path: this.pagePath(target) });
    }
    return out;
  }

  title(host: number, page: number): string {
    return `Host ${host} page ${page}`;
  }

  /** Deterministic text of about `bytes` characters, shared by every page of that size. */
  filler(bytes: number): string {
    let f = this.fillerCache.get(bytes);
    if (f === undefined) {
      const rnd = prng(this.opts.seed);
      const parts: string[] = [];
      let len = 0;
      while (len < bytes) {
        const sentence: string[] = [];
        for (let i = 0; i < 12; i++) sentence.push(WORDS[Math.floor(rnd() * WORDS.length)]!);
        const p = `<p>${sentence.join(' ')}.</p>\n`;
        parts.push(p);
        len += p.length;
      }
      f = parts.join('');
      this.fillerCache.set(bytes, f);
    }
    return f;
  }
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Host names as the HostDb keys them, as Nutch's UpdateHostDbMapper: the URL's host in lower case
 * without port; with -filter / -normalize the host goes through the URL filters and normalizers as
 * `http://<host>/` and a rejected host is dropped. Also the home page a CrawlDb record tells of.
 */
import { CrawlStatus, DatumMeta, type CrawlDatum } from '../../model/crawl-datum.js';
import type { NutchContext } from '../context.js';

export type HostKeyer = (host: string) => string | null;

/** The host of a URL, or null for a URL without one (counted as malformed). */
export function hostOfUrl(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host || null;
  } catch {
    return null;
  }
}

export async function hostKeyer(ctx: NutchContext, opts: { filter: boolean; normalize: boolean }): Promise<HostKeyer> {
  if (!opts.filter && !opts.normalize) return (host) => host;
  const normalizers = opts.normalize ? await ctx.extensions.urlNormalizers('default') : null;
  const filters = opts.filter ? await ctx.extensions.urlFilters() : null;
  const cache = new Map<string, string | null>();
  return (host) => {
    const cached = cache.get(host);
    if (cached !== undefined) return cached;
    const url = `http://${host}/`;
    let out: string | null = url;
    try {
      if (normalizers) out = normalizers.normalize(out);
      if (out !== null && filters) out = filters.filter(out);
    } catch {
      out = null;
    }
    // Nutch takes the host of the URL it started from after a change; the normalised host is meant
    const key = out === null ? null : out === url ? host : hostOfUrl(out);
    if (cache.size > 100_000) cache.clear();
    cache.set(host, key);
    return key;
  };
}

/**
 * The home page a record of `host` tells of, as Nutch: only a fetched (not unfetched) root URL
 * (`/`, no query); a redirecting root gives its target (from the protocol status), any other its own
 * origin. Unlike Nutch, the port is kept: `http://127.0.0.1:8080/` is not `http://127.0.0.1/`.
 */
export function homepageOf(url: string, host: string, datum: CrawlDatum): string | null {
  if (datum.status === CrawlStatus.STATUS_DB_UNFETCHED) return null;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.pathname !== '/' || u.search !== '' || u.hostname.toLowerCase() !== host) return null;
  if (datum.status === CrawlStatus.STATUS_DB_REDIR_PERM || datum.status === CrawlStatus.STATUS_DB_REDIR_TEMP) {
    const status = datum.metaData[DatumMeta.PROTO_STATUS_KEY]?.[0] ?? '';
    const target = /:\s(\S+:\/\/\S+)$/.exec(status)?.[1];
    return target ?? null;
  }
  return `${u.protocol}//${u.host}/`;
}

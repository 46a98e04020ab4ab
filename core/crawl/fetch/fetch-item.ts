/**
 * FetchItem: one URL to fetch, with the id of the queue it belongs to. As Nutch's FetchItem, the queue
 * id is `<protocol>://<key>` where the key is the host (byHost), the registered domain (byDomain) or
 * the IP address (byIP) of the URL, lower-cased.
 */
import { lookup } from 'node:dns/promises';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import { domainOf } from '../../url/url-parts.js';

export type QueueMode = 'byHost' | 'byDomain' | 'byIP';

export interface FetchItem {
  url: string;
  u: URL;
  datum: CrawlDatum;
  queueId: string;
  /** crawl_generate partition this item came from; its output goes to the same partition. */
  partition: number;
  /** Redirects followed to reach this URL (http.redirect.max > 0). */
  redirects: number;
}

export function parseQueueMode(mode: string): QueueMode {
  const m = mode.trim().toLowerCase();
  if (m === 'bydomain') return 'byDomain';
  if (m === 'byip') return 'byIP';
  return 'byHost';
}

/** The queue key of a URL; byIP resolves the host (once per host per fetch via `ipCache`; the host itself when unresolvable). */
export async function queueIdOf(u: URL, mode: QueueMode, ipCache: Map<string, Promise<string>> = new Map()): Promise<string> {
  const proto = u.protocol.slice(0, -1).toLowerCase();
  const host = u.hostname.toLowerCase();
  if (mode === 'byDomain') return `${proto}://${domainOf(host)}`;
  if (mode === 'byIP') {
    let ip = ipCache.get(host);
    if (!ip) {
      ip = lookup(host).then((r) => r.address, () => host);
      ipCache.set(host, ip);
    }
    return `${proto}://${await ip}`;
  }
  return `${proto}://${host}`;
}

export async function createFetchItem(url: string, datum: CrawlDatum, mode: QueueMode, partition: number, redirects = 0, ipCache?: Map<string, Promise<string>>): Promise<FetchItem | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  return { url, u, datum, queueId: await queueIdOf(u, mode, ipCache), partition, redirects };
}

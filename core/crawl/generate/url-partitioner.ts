/**
 * Nutch's URLPartitioner: crawl_generate is split into numFetchers partitions so that all URLs of a
 * host (partition.url.mode byHost), a domain (byDomain) or an IP address (byIP) land in the same
 * partition, hence in the same fetcher's politeness queues. The hash is Java's String.hashCode, so
 * partitions are stable across runs.
 */
import { lookup } from 'node:dns/promises';
import type { URLNormalizers } from '../../extension-points/url-normalizer.js';
import { TimeSlice } from '../../storage/yield.js';
import { domainOf, hostOf } from '../../url/url-parts.js';

export type PartitionMode = 'byHost' | 'byDomain' | 'byIP';

export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

export class URLPartitioner {
  private readonly ipCache = new Map<string, string>();

  constructor(
    private readonly mode: PartitionMode,
    private readonly numPartitions: number,
    private readonly normalizers: URLNormalizers | null,
    private readonly warn: (msg: string) => void,
  ) {}

  /** Resolves the hosts' addresses once each (byIP only). */
  async prepare(urls: readonly string[]): Promise<void> {
    if (this.mode !== 'byIP') return;
    const hosts = new Set<string>();
    const slice = new TimeSlice();
    for (const u of urls) {
      const h = hostOf(u);
      if (h && !this.ipCache.has(h)) hosts.add(h);
      await slice.tick();
    }
    const list = [...hosts];
    for (let i = 0; i < list.length; i += 16) {
      await Promise.all(list.slice(i, i + 16).map(async (h) => {
        try {
          this.ipCache.set(h, (await lookup(h)).address);
        } catch {
          this.warn(`Couldn't find IP for host: ${h}`);
          this.ipCache.set(h, h);
        }
      }));
    }
  }

  partition(url: string): number {
    if (this.numPartitions <= 1) return 0;
    const normalised = this.normalizers?.normalize(url) ?? url;
    const host = hostOf(normalised) ?? normalised;
    const key = this.mode === 'byDomain' ? domainOf(host) : this.mode === 'byIP' ? (this.ipCache.get(host) ?? host) : host;
    return (javaStringHash(key) & 0x7fffffff) % this.numPartitions;
  }
}

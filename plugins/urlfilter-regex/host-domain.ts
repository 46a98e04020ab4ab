/**
 * Nutch's URLUtil.getDomainName / getDomainSuffix for a host, on the public suffix list (tldts)
 * rather than Nutch's domain-suffixes.xml: the registrable domain ("apache.org" for
 * "lucene.apache.org"), the ICANN public suffix ("org", "co.uk"). A host under no known suffix
 * (an IP address, "localhost", "intranet.local") is its own domain and has no suffix, as in Nutch.
 */
import { parse } from 'tldts';

export interface HostDomain {
  host: string;
  domain: string;
  suffix: string | null;
}

/** Hosts repeat heavily within a crawl: a bounded cache saves a public-suffix lookup per URL. */
const CACHE_LIMIT = 20_000;
const cache = new Map<string, HostDomain>();

export function hostDomain(host: string): HostDomain {
  let hd = cache.get(host);
  if (hd === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    hd = lookup(host);
    cache.set(host, hd);
  }
  return hd;
}

function lookup(host: string): HostDomain {
  const h = host.endsWith('.') ? host.slice(0, -1) : host;
  if (h === '') return { host, domain: '', suffix: null };
  const p = parse(h, { allowPrivateDomains: false, extractHostname: false, detectIp: true });
  if (p.isIp || !p.isIcann || !p.publicSuffix) return { host, domain: h, suffix: null };
  return { host, domain: p.domain ?? h, suffix: p.publicSuffix };
}

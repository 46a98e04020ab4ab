/**
 * The host, domain and public suffix of a URL — Nutch's URLUtil.getHost / getDomainName /
 * getDomainSuffix — computed by one rule everywhere (generate's partitions and count mode, fetch
 * queues, parse's ignore-external rule, dedup groups, domainstats, the domain URL filters):
 *
 * - host: WHATWG URL's hostname, lower-cased, without a trailing dot ('' or null when there is none);
 * - domain: the registrable domain on the ICANN section of the public suffix list (tldts), private
 *   suffixes (github.io, blogspot.com) ignored as Nutch's domain-suffixes.xml does not list them; a
 *   host under an unlisted top-level label falls under the list's default rule (`www.a.example` →
 *   `a.example`); an IP address or a single label (`localhost`) is its own domain;
 * - suffix: the ICANN public suffix, or null when the host has none (IP addresses, unlisted labels),
 *   as Nutch's getDomainSuffix returns null.
 */
import { lazyModule } from '../lazy-module.js';

// tldts (the public suffix list: ~200 KB of data evaluated at load) is loaded on the first lookup,
// not with this module: nutch-ts/plugin re-exports it, so every plugin, parse worker and command
// would otherwise pay ~0.05 CPU-s for it whether or not it ever asks for a domain.
const tldts = lazyModule<typeof import('tldts')>('tldts');

/** Hosts repeat heavily within a crawl: a bounded memo saves a public-suffix lookup per URL (a pure function's cache, not state). */
const CACHE_LIMIT = 20_000;
const cache = new Map<string, HostParts>();

export interface HostParts {
  /** Lower-cased host without a trailing dot. */
  host: string;
  domain: string;
  suffix: string | null;
}

/** Domain and public suffix of a host name (any case, trailing dot allowed). */
export function hostParts(host: string): HostParts {
  let parts = cache.get(host);
  if (parts === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    parts = lookup(host);
    cache.set(host, parts);
  }
  return parts;
}

function lookup(raw: string): HostParts {
  const lower = raw.toLowerCase();
  const host = lower.endsWith('.') ? lower.slice(0, -1) : lower;
  if (host === '') return { host, domain: '', suffix: null };
  const p = tldts().parse(host, { allowPrivateDomains: false, extractHostname: false, detectIp: true });
  if (p.isIp) return { host, domain: host, suffix: null };
  return { host, domain: p.domain ?? host, suffix: p.isIcann && p.publicSuffix ? p.publicSuffix : null };
}

/** The registrable domain of a host (see the rule above). */
export function domainOf(host: string): string {
  return hostParts(host).domain;
}

/** The ICANN public suffix of a host, or null. */
export function publicSuffixOf(host: string): string | null {
  return hostParts(host).suffix;
}

/**
 * The lower-cased host of a URL, as WHATWG URL gives it (null when the URL does not parse or has no
 * host). Hot in generate and updatedb: plain `http(s)://name[:port]/…` URLs take a fast path that
 * gives the same answer without building a URL object; anything WHATWG would rewrite (percent
 * escapes, IDN, numeric IPv4 forms, userinfo, IPv6, a trailing dot) goes through WHATWG URL.
 */
export function hostOf(url: string): string | null {
  const fast = plainHost(url);
  if (fast !== null) return fast;
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

const PLAIN_SCHEME = /^https?:\/\//i;
const PLAIN_HOST = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/i;
const DIGIT_START = /^(?:\d|0x)/i;
const DOTTED_QUAD = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function plainHost(url: string): string | null {
  if (!PLAIN_SCHEME.test(url)) return null;
  const start = url.indexOf('//') + 2;
  let end = url.length;
  let colon = -1;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23 || c === 0x5c) { end = i; break; } // / ? # \
    if (c === 0x3a && colon === -1) colon = i;
  }
  const hostEnd = colon === -1 ? end : colon;
  if (colon !== -1) {
    const port = url.slice(colon + 1, end);
    if (!/^\d{0,5}$/.test(port) || Number(port) > 65535) return null;
  }
  const host = url.slice(start, hostEnd);
  if (DOTTED_QUAD.test(host)) return host;
  if (!PLAIN_HOST.test(host) || /xn--/i.test(host)) return null;
  // WHATWG's IPv4 parser may rewrite a host whose last label is numeric (0x7f.1 → 127.0.0.1)
  if (DIGIT_START.test(host.slice(host.lastIndexOf('.') + 1))) return null;
  return host.toLowerCase();
}

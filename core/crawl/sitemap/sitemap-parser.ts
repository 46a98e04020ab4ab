/**
 * Sitemap parsing as crawler-commons' SiteMapParser (what Nutch uses): XML `<urlset>` and
 * `<sitemapindex>` (sitemaps.org 0.9, namespace prefixes ignored), plain-text sitemaps (one URL per
 * line), gzip detected by its magic bytes (a `.xml.gz` served as application/gzip). Strict parsing
 * keeps only URLs under the sitemap's own base URL (same scheme, host and port, path below the
 * sitemap's directory), as the protocol says. The protocol's limits hold: at most 50,000 URLs per
 * sitemap (the rest counted, not kept) and at most `maxBytes` bytes, gzip expanded.
 */
import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';

export const MAX_URLS_PER_SITEMAP = 50_000;

export interface SitemapUrl {
  loc: string;
  lastmod: number | null;
  changefreq: string | null;
  priority: number | null;
}

export type ParsedSitemap =
  | { kind: 'urlset'; urls: SitemapUrl[]; rejected: number; overLimit: number }
  | { kind: 'index'; sitemaps: string[]; overLimit: number };

export class SitemapFormatError extends Error {}

export function parseSitemap(bytes: Uint8Array, sitemapUrl: string, opts: { strict: boolean; maxBytes: number }): ParsedSitemap {
  let data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b) {
    try {
      data = gunzipSync(data, { maxOutputLength: opts.maxBytes });
    } catch (err) {
      throw new SitemapFormatError((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError ? `gzipped sitemap expands beyond sitemap.size.max (${opts.maxBytes} bytes)` : `bad gzip data: ${(err as Error).message}`);
    }
  }
  if (data.length > opts.maxBytes) data = data.subarray(0, opts.maxBytes);
  const text = data.toString('utf8').replace(/^\uFEFF/, '');
  const base = baseOf(sitemapUrl);
  const valid = (u: string) => !opts.strict || (base !== null && u.startsWith(base));
  if (/^\s*</.test(text)) return parseXml(text, valid);
  // plain text: one absolute URL per line
  const urls: SitemapUrl[] = [];
  let rejected = 0;
  let overLimit = 0;
  for (const line of text.split(/\r?\n/)) {
    const loc = line.trim();
    if (!loc) continue;
    if (!isAbsoluteUrl(loc) || !valid(loc)) { rejected++; continue; }
    if (urls.length >= MAX_URLS_PER_SITEMAP) { overLimit++; continue; }
    urls.push({ loc, lastmod: null, changefreq: null, priority: null });
  }
  return { kind: 'urlset', urls, rejected, overLimit };
}

function parseXml(text: string, valid: (u: string) => boolean): ParsedSitemap {
  let root: 'urlset' | 'sitemapindex' | null = null;
  const urls: SitemapUrl[] = [];
  const sitemaps: string[] = [];
  let rejected = 0;
  let overLimit = 0;
  let entry: Record<string, string> | null = null;
  let field: string | null = null;
  let buf = '';
  const local = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();
  const parser = new Parser({
    onopentag(name) {
      const n = local(name);
      if (root === null) {
        if (n !== 'urlset' && n !== 'sitemapindex') throw new SitemapFormatError(`not a sitemap: root element <${name}>`);
        root = n;
        return;
      }
      if ((root === 'urlset' && n === 'url') || (root === 'sitemapindex' && n === 'sitemap')) entry = {};
      else if (entry && ['loc', 'lastmod', 'changefreq', 'priority'].includes(n)) { field = n; buf = ''; }
    },
    ontext(t) {
      if (field) buf += t;
    },
    onclosetag(name) {
      const n = local(name);
      if (field && n === field) {
        entry![field] = buf.trim();
        field = null;
        return;
      }
      if (!entry || !((root === 'urlset' && n === 'url') || (root === 'sitemapindex' && n === 'sitemap'))) return;
      const e: Record<string, string> = entry;
      entry = null;
      const loc = e.loc ?? '';
      if (!isAbsoluteUrl(loc)) { rejected++; return; }
      if (root === 'sitemapindex') {
        if (sitemaps.length >= MAX_URLS_PER_SITEMAP) overLimit++;
        else sitemaps.push(loc);
        return;
      }
      if (!valid(loc)) { rejected++; return; }
      if (urls.length >= MAX_URLS_PER_SITEMAP) { overLimit++; return; }
      urls.push({ loc, lastmod: parseLastmod(e.lastmod), changefreq: e.changefreq?.toLowerCase() || null, priority: parsePriority(e.priority) });
    },
  }, { xmlMode: true, decodeEntities: true });
  parser.end(text);
  const found = root as 'urlset' | 'sitemapindex' | null;
  if (found === null) throw new SitemapFormatError('not a sitemap: no <urlset> or <sitemapindex> element');
  return found === 'sitemapindex' ? { kind: 'index', sitemaps, overLimit } : { kind: 'urlset', urls, rejected, overLimit };
}

/** W3C Datetime (a date, or a date and time with a zone); null when absent or unreadable. */
function parseLastmod(v: string | undefined): number | null {
  if (!v) return null;
  const t = Date.parse(/^\d{4}(-\d\d){0,2}$/.test(v) ? `${v.length === 4 ? `${v}-01-01` : v.length === 7 ? `${v}-01` : v}T00:00:00Z` : v);
  return Number.isFinite(t) ? t : null;
}

/** 0.0 to 1.0; anything else is ignored (the default priority applies). */
function parsePriority(v: string | undefined): number | null {
  if (!v) return null;
  const p = Number(v);
  return Number.isFinite(p) && p >= 0 && p <= 1 ? p : null;
}

function isAbsoluteUrl(u: string): boolean {
  try {
    return /^(https?|ftp|file):$/.test(new URL(u).protocol);
  } catch {
    return false;
  }
}

/** The sitemap's base: its URL up to the last `/` of the path (sitemaps.org "Sitemap file location"). */
function baseOf(sitemapUrl: string): string | null {
  try {
    const u = new URL(sitemapUrl);
    return `${u.protocol}//${u.host}${u.pathname.slice(0, u.pathname.lastIndexOf('/') + 1)}`;
  } catch {
    return null;
  }
}

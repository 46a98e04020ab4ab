/** The test web's sitemaps (TestWebOptions.sitemaps): an index, a plain XML sitemap and a gzipped one. */
import { gzipSync } from 'node:zlib';
import type { SitemapEntry, WebModel } from './web-model.js';

const cache = new Map<string, Buffer>();

function urlset(entries: SitemapEntry[], url: (path: string) => string, extra: string[] = []): string {
  const items = entries.map((e) => `  <url>\n    <loc>${url(e.path)}</loc>\n    <lastmod>${e.lastmod}</lastmod>\n    <changefreq>${e.changefreq}</changefreq>\n    <priority>${e.priority}</priority>\n  </url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${[...items, ...extra].join('\n')}\n</urlset>\n`;
}

export function renderSitemap(model: WebModel, host: number, path: string, url: (host: number, path: string) => string): { type: string; body: string | Buffer } | null {
  const here = (p: string) => url(host, p);
  if (path === '/sitemap_index.xml') {
    return {
      type: 'application/xml',
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <sitemap><loc>${here('/sitemap.xml')}</loc></sitemap>\n  <sitemap><loc>${here('/sitemap-odd.xml.gz')}</loc><lastmod>2024-05-01</lastmod></sitemap>\n</sitemapindex>\n`,
    };
  }
  if (path === '/sitemap.xml') {
    // one URL of another host: not under this sitemap's base URL, so strict parsing rejects it
    const foreign = `  <url><loc>${url((host + 1) % model.opts.hosts === host ? host : (host + 1) % model.opts.hosts, '/foreign-from-sitemap.html')}</loc></url>`;
    return { type: 'application/xml', body: urlset(model.sitemapEntries('even'), here, model.opts.hosts > 1 ? [foreign] : []) };
  }
  if (path === '/sitemap-odd.xml.gz') {
    const key = here(path);
    let gz = cache.get(key);
    if (!gz) cache.set(key, (gz = gzipSync(urlset(model.sitemapEntries('odd'), here))));
    return { type: 'application/gzip', body: gz };
  }
  return null;
}

/**
 * URL filter throughput on 200,000 realistic generated URLs (pages, images and other binary
 * suffixes, query strings, mailto:/ftp:/file: links, path loops, long URLs, some malformed): each
 * urlfilter-* plugin alone with the shipped rules (or, where Nutch ships an empty rule file, a
 * realistic one), then the default chain as the crawl runs it — the default normalizers
 * (basic + regex + pass, those present) and then urlfilter-regex with the shipped
 * regex-urlfilter.txt and urlfilter-validator. One core, sync calls. Issue floor: 100,000 URLs/s
 * through normalize + filter together.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext } from '../core/crawl/context.js';
import { silentLogger } from '../core/log.js';
import { measureUrlRate } from './lib/url-rate.js';

const COUNT = 200_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Deterministic PRNG (mulberry32) so every run sees the same URLs. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function filterMix(count: number): string[] {
  const r = rng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const words = ['news', 'article', 'products', 'category', 'blog', '2024', 'about-us', 'search', 'images', 'docs', 'api', 'v2', 'user', 'tag', 'page', 'wiki', 'Main_Page'];
  const tlds = ['com', 'org', 'net', 'de', 'co.uk', 'io', 'fr', 'com.au', 'info'];
  const hosts = Array.from({ length: 1000 }, (_, i) => `${pick(['www.', '', 'blog.', 'shop.', 'm.', 'en.'])}site${i}.${pick(tlds)}`);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const host = pick(hosts);
    const scheme = r() < 0.7 ? 'https' : 'http';
    const depth = 1 + Math.floor(r() * 5);
    const segs: string[] = [];
    for (let d = 0; d < depth; d++) segs.push(pick(words) + (r() < 0.3 ? `-${Math.floor(r() * 100000)}` : ''));
    let path = '/' + segs.join('/');
    const kind = r();
    if (kind < 0.12) path += pick(['.jpg', '.png', '.gif', '.JPG', '.css', '.js', '.pdf', '.zip', '.mp4', '.woff2', '.svg']);
    else if (kind < 0.5) path += pick(['.html', '/', '.php', '', '/index.html', '.aspx']);
    if (r() < 0.01) path = '/a/b/a/c/a/d/a/e' + path; // a loop the repeated-segment rule catches
    const query = r() < 0.3 ? '?' + Array.from({ length: 1 + Math.floor(r() * 3) }, () => `${pick(['id', 'page', 'q', 'sort', 'lang'])}=${Math.floor(r() * 1000)}`).join('&') : '';
    let url = `${scheme}://${host}${path}${query}`;
    const odd = r();
    if (odd < 0.01) url = `mailto:user${i}@${host}`;
    else if (odd < 0.015) url = `ftp://ftp.${host}/pub/file${i}.tar.gz`;
    else if (odd < 0.02) url = `file:///home/user/doc${i}.html`;
    else if (odd < 0.025) url = `${host}${path}`; // no scheme
    else if (odd < 0.03) url = `${scheme}://${host}/${'x'.repeat(300 + (i % 2000))}`;
    else if (odd < 0.032) url = `${scheme}://${host}/a b`;
    out.push(url);
  }
  return out;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-url-filters-'));
  // Nutch ships these three empty; a realistic list makes their figures mean something.
  writeFileSync(join(dir, 'domain-urlfilter.txt'), ['com', 'org', 'co.uk', ...Array.from({ length: 300 }, (_, i) => `site${i}.de`), ...Array.from({ length: 300 }, (_, i) => `www.site${i}.net`)].join('\n') + '\n');
  writeFileSync(join(dir, 'domaindenylist-urlfilter.txt'), [...Array.from({ length: 500 }, (_, i) => `site${i * 2}.com`), 'info', 'shop.site3.io'].join('\n') + '\n');
  const fast: string[] = [];
  for (let i = 0; i < 300; i++) fast.push(`Domain site${i}.com`, `  DenyPath /search`, `  DenyPathQuery (?i)sort=`);
  for (let i = 0; i < 100; i++) fast.push(`Host www.site${i}.org`, `  DenyPath .*`);
  fast.push('Domain .', '  DenyPath (/[^/]+)/[^/]+\\1/[^/]+\\1/');
  writeFileSync(join(dir, 'fast-urlfilter.txt'), fast.join('\n') + '\n');
  const urls = filterMix(COUNT);

  const all = createContext({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, logger: silentLogger, config: { 'plugin.includes': 'urlfilter-.*' } });
  const def = createContext({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, logger: silentLogger });
  try {
    console.log(`URL filters, ${COUNT.toLocaleString('en-US')} generated URLs, best of ${ROUNDS} rounds, one core`);
    for (const id of ['urlfilter-regex', 'urlfilter-validator', 'urlfilter-prefix', 'urlfilter-suffix', 'urlfilter-domain', 'urlfilter-domaindenylist', 'urlfilter-fast']) {
      const chain = await all.extensions.urlFilters(id);
      measureUrlRate(id, urls, (u) => chain.filter(u));
    }
    const filters = await def.extensions.urlFilters();
    console.log(`default filter chain: ${filters.chain.join(' -> ')}`);
    const filterRate = measureUrlRate('default filters (regex + validator)', urls, (u) => filters.filter(u));
    const normalizers = await def.extensions.urlNormalizers('default');
    console.log(`default normalizer chain: ${normalizers.chain.join(' -> ') || '(none)'}`);
    const rate = measureUrlRate('default chain: normalize then filter', urls, (u) => {
      const n = normalizers.normalize(u);
      return n === null ? null : filters.filter(n);
    });
    console.log(`floor 100,000 URLs/s per core for normalize + filter: ${rate >= 100_000 ? 'met' : 'NOT met'} (${(rate / 100_000).toFixed(2)}x); filters alone ${(filterRate / 100_000).toFixed(2)}x`);
  } finally {
    await all.close();
    await def.close();
  }
}

await main();

/**
 * URL normalizer throughput on a realistic generated mix of 200,000 URLs (mixed-case hosts, default
 * ports, dot segments, double slashes, percent-encoding, session ids, fragments, query strings,
 * non-ASCII paths and hosts, some malformed): each URL normalizer plugin alone, then the default
 * chain (basic + regex + pass with the shipped conf/regex-normalize.xml) as the crawl runs it.
 * One core, sync calls. Issue floor: 100,000 URLs/s for normalize + filter together.
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

export function urlMix(count: number): string[] {
  const r = rng(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const words = ['news', 'article', 'products', 'category', 'blog', '2024', 'about-us', 'search', 'images', 'docs', 'api', 'v2', 'user', 'profile', 'tag', 'page'];
  const hosts = Array.from({ length: 500 }, (_, i) => `${pick(['www.', '', 'blog.', 'shop.', 'm.'])}site${i}.${pick(['com', 'org', 'net', 'de', 'co.uk', 'io'])}`);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const roll = r();
    let host = pick(hosts);
    if (roll < 0.1) host = host.toUpperCase();
    const scheme = roll < 0.7 ? 'https' : roll < 0.98 ? 'http' : 'HTTP';
    const port = r() < 0.05 ? (scheme === 'https' ? ':443' : ':80') : r() < 0.02 ? ':8080' : '';
    const depth = 1 + Math.floor(r() * 4);
    const segs: string[] = [];
    for (let d = 0; d < depth; d++) segs.push(pick(words) + (r() < 0.3 ? `-${Math.floor(r() * 10000)}` : ''));
    if (r() < 0.05) segs.splice(1, 0, '..');
    if (r() < 0.05) segs.splice(1, 0, '.');
    let path = '/' + segs.join(r() < 0.04 ? '//' : '/') + pick(['', '/', '.html', '.php', '.aspx', '/index.html']);
    if (r() < 0.05) path += pick(['%7Euser', '%2d%41', '/caf\u00e9', '/%c3%a9t%c3%a9', '/a%20b']);
    let query = '';
    const q = r();
    if (q < 0.35) {
      const params = Array.from({ length: 1 + Math.floor(r() * 4) }, () => `${pick(['id', 'page', 'q', 'sort', 'lang', 'utm_source', 'ref'])}=${Math.floor(r() * 1000)}`);
      if (r() < 0.1) params.push(`PHPSESSID=${Math.floor(r() * 1e16).toString(16).padStart(32, '0')}`);
      if (r() < 0.05) params.unshift('');
      query = '?' + params.join('&');
    }
    if (r() < 0.04) path += `;jsessionid=${Math.floor(r() * 1e12).toString(16).toUpperCase()}`;
    const fragment = r() < 0.15 ? '#' + pick(['top', 'comments', 'section-2', '']) : '';
    let url = `${scheme}://${host}${port}${path}${query}${fragment}`;
    const bad = r();
    if (bad < 0.01) url = url.replace('://', '://bad..');
    else if (bad < 0.015) url = url.replace(/^https?:\/\//, '');
    else if (bad < 0.02) url = `https://b\u00fccher-${i % 20}.de/seite/${i}`;
    out.push(url);
  }
  return out;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-url-normalizers-'));
  writeFileSync(join(dir, 'protocols.txt'), Array.from({ length: 100 }, (_, i) => `site${i}.com\thttps`).join('\n') + '\n*.site7.org\thttps\n');
  writeFileSync(join(dir, 'host-urlnormalizer.txt'), Array.from({ length: 100 }, (_, i) => `site${i}.net www.site${i}.net`).join('\n') + '\n*.site9.de site9.de\n');
  writeFileSync(join(dir, 'slashes.txt'), Array.from({ length: 100 }, (_, i) => `www.site${i}.io ${i % 2 ? '+' : '-'}`).join('\n') + '\n');
  const urls = urlMix(COUNT);

  const all = createContext({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, logger: silentLogger, config: { 'plugin.includes': 'urlnormalizer-.*' } });
  const def = createContext({ cwd: dir, env: { NUTCH_CONF_DIR: dir }, logger: silentLogger });
  try {
    console.log(`URL normalizers, ${COUNT.toLocaleString('en-US')} generated URLs, best of ${ROUNDS} rounds, one core`);
    for (const id of ['urlnormalizer-basic', 'urlnormalizer-regex', 'urlnormalizer-pass', 'urlnormalizer-protocol', 'urlnormalizer-host', 'urlnormalizer-querystring', 'urlnormalizer-slash']) {
      const chain = await all.extensions.urlNormalizers('default', id);
      measureUrlRate(id, urls, (u) => chain.normalize(u));
    }
    const chain = await def.extensions.urlNormalizers('default');
    console.log(`default chain: ${chain.chain.join(' -> ')}`);
    const rate = measureUrlRate('default chain (basic + regex + pass)', urls, (u) => chain.normalize(u));
    console.log(`floor 100,000 URLs/s for normalize + filter together: normalize alone uses ${((100_000 / rate) * 100).toFixed(0)}% of that one-second budget`);
  } finally {
    await all.close();
    await def.close();
  }
}

await main();

/**
 * Parse throughput on realistic ~30 KB pages (navigation, articles, lists, tables, inline script and
 * style, entities, ~150 links): the raw htmlparser2 tokenizer (the ceiling), parse-html on one core
 * including text, outlinks and the MD5 signature (streaming path, and the DOM path that HtmlParseFilters
 * get), and the worker pool with one worker per core. Reports MB/s and pages/s, and the 20,000-page
 * budget of DESIGN §8 (fetch + parse <= 30 s; parse-html ~40 MB/s per core; issue floor 20 MB/s).
 */
import { availableParallelism, tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { Parser as HtmlParser2 } from 'htmlparser2';
import { createContext } from '../core/crawl/context.js';
import { silentLogger } from '../core/log.js';
import { createContent, type Content } from '../core/model/content.js';
import type { Parser } from '../core/extension-points/parser.js';
import type { Signature } from '../core/extension-points/signature.js';
import { HtmlParseFilters } from '../core/extension-points/html-parse-filter.js';
import { parsePoolOf } from '../core/parse/parsers.js';

const PAGES = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

function page(n: number): string {
  const words = 'crawler fetch segment robots queue parse index link anchor host politeness delay content metadata signature score outlink'.split(' ');
  const w = (i: number) => words[(i * 7 + n) % words.length];
  const nav = Array.from({ length: 30 }, (_, i) => `<li class="nav-item"><a class="nav-link" href="/section/${i}/">${w(i)} &amp; ${w(i + 1)}</a></li>`).join('');
  let body = '';
  for (let i = 0; body.length < 26_000; i++) {
    body += `<article id="a${i}" class="post"><h2><a href="/post/${n}-${i}.html" title="${w(i)}">${w(i)} ${w(i + 2)} ${i}</a></h2>`
      + `<p class="meta">Posted by <a href="https://users.example.org/u/${i % 13}">${w(i + 3)}</a> &middot; ${i} comments</p>`
      + `<p>${Array.from({ length: 24 }, (_, k) => w(i + k)).join(' ')} <em>${w(i + 5)}</em>, <a href="../rel/${i}?ref=${n}#c">more&hellip;</a></p>`
      + `<table><tr><td>${w(i)}</td><td>${i * 3}</td></tr></table><img src="/img/${i}.png" alt="${w(i)}"></article>\n`;
  }
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="description" content="page ${n}">`
    + `<title>Bench page ${n} &mdash; nutch-ts</title><link rel="stylesheet" href="/css/site.css">`
    + `<style>.post{margin:0 auto}.nav-item{display:inline}</style><script>window.dataLayer=[];function g(){dataLayer.push(arguments)}</script></head>`
    + `<body><header><nav><ul>${nav}</ul></nav></header><main>${body}</main><footer><p>&copy; 2026 <a href="/about">About</a></p></footer></body></html>`;
}

function measure(name: string, bytesPerRun: number, pagesPerRun: number, fn: () => void | Promise<void>): Promise<number> {
  return (async () => {
    const warm = Date.now();
    while (Date.now() - warm < 300) await fn();
    const start = performance.now();
    let runs = 0;
    while (performance.now() - start < SECONDS * 1000) {
      await fn();
      runs++;
    }
    const secs = (performance.now() - start) / 1000;
    const mbs = (runs * bytesPerRun) / 1e6 / secs;
    console.log(`${name.padEnd(44)} ${mbs.toFixed(1).padStart(6)} MB/s  ${((runs * pagesPerRun) / secs).toFixed(0).padStart(6)} pages/s`);
    return mbs;
  })();
}

async function main(): Promise<void> {
  const htmls = Array.from({ length: PAGES }, (_, i) => page(i));
  const contents: Content[] = htmls.map((h, i) => createContent({ url: `http://bench${i % 8}.example/p/${i}.html`, contentType: 'text/html', content: new TextEncoder().encode(h) }));
  const totalBytes = contents.reduce((s, c) => s + c.content.length, 0);
  console.log(`${PAGES} pages, ${(totalBytes / PAGES / 1024).toFixed(1)} KB average, ${availableParallelism()} cores`);

  const cwd = mkdtempSync(join(tmpdir(), 'parse-bench-'));
  const ctx = createContext({ cwd, env: { NUTCH_CONF_DIR: cwd }, logger: silentLogger, defines: { 'plugin.includes': 'parse-(html|text)' } });
  try {
    const parser = await ctx.plugins.getInstance<Parser>(ctx.plugins.findExtension('Parser', 'parse-html')!);
    const signature = await ctx.extensions.signature();
    const noopFilters = new HtmlParseFilters([{ extensionId: 'noop', filter: { filter: (_c, r) => r } }]);

    const tokenizer = await measure('htmlparser2 tokenizer (ceiling)', totalBytes, PAGES, () => {
      for (const h of htmls) new HtmlParser2({}).end(h);
    });
    const single = await measure('parse-html, 1 core (text+outlinks+MD5)', totalBytes, PAGES, async () => {
      for (const c of contents) await parseAndSign(parser, signature, c);
    });
    await measure('parse-html, 1 core, DOM path (HtmlParseFilters)', totalBytes, PAGES, async () => {
      for (const c of contents) await parseAndSign(parser, signature, c, noopFilters);
    });
    const pool = parsePoolOf(ctx);
    await pool.ready();
    const pooled = await measure(`worker pool (${pool.size} workers, incl. transfer)`, totalBytes, PAGES, async () => {
      await Promise.all(contents.map((c) => pool.parse(c)));
    });
    const perCore = pooled / pool.size;
    console.log(`pool per worker: ${perCore.toFixed(1)} MB/s; single-thread vs tokenizer: ${((single / tokenizer) * 100).toFixed(0)}%`);
    const budgetBytes = 20_000 * 30 * 1024;
    console.log(`20,000 x 30 KB pages: ${(budgetBytes / 1e6 / pooled).toFixed(1)} s of parsing through the pool (budget: fetch + parse <= 30 s); `
      + `floor 20 MB/s per core: ${single >= 20 ? 'met' : 'NOT met'}; target ~40 MB/s per core: ${single >= 40 ? 'met' : 'not met'}`);
  } finally {
    await ctx.close();
  }
}

async function parseAndSign(parser: Parser, signature: Signature, content: Content, htmlParseFilters?: HtmlParseFilters): Promise<void> {
  const result = await parser.getParse(content, htmlParseFilters ? { htmlParseFilters } : undefined);
  signature.calculate(content, result.parses[content.url]!);
}

await main();

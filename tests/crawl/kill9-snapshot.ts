/**
 * What a crawl directory holds, read through the storage interfaces (so on either engine) and the
 * search command, in a form that two directories crawled from the same seeds at different times can be
 * compared in: the time-dependent fields (fetch and modified times, metadata values such as response
 * times) are left out; URLs, statuses, scores, signatures, metadata keys, inlinks and indexed documents
 * stay, each part's records listed with their multiplicity so a record stored twice shows (the pages of a
 * set of duplicates are named by their signature, status 'db_fetched or db_duplicate' (-1): which ones
 * dedup keeps depends on fetch times). Reading every
 * store to its end is itself the first check after a kill: a store that does not open or read throws.
 * Used by tests/crawl/kill9-stages-harness.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createContext } from '../../core/crawl/context.js';
import { silentLogger } from '../../core/log.js';
import { CrawlStatus, type CrawlDatum } from '../../core/model/crawl-datum.js';
import { SEGMENT_PARTS, type SegmentPartName } from '../../core/storage/interfaces.js';
import { runNutch } from '../helpers/cli.js';

export interface SegmentSnapshot {
  name: string;
  /** Per part present: `complete` flag and its records, one line per record, sorted. */
  parts: Partial<Record<SegmentPartName, { complete: boolean; records: string[] }>>;
}

export interface CrawlSnapshot {
  /** `url status retries interval score signature metaKeys`, sorted; a page of a set dedup marked is named by the set. */
  crawlDb: string[];
  /** `url <- fromUrl "anchor"`, sorted. */
  linkDb: string[];
  /** Every segment, by name. */
  segments: SegmentSnapshot[];
  /** `url title` of every indexed document, sorted. */
  index: string[];
}

const hex = (b: Uint8Array | null) => (b ? Buffer.from(b).toString('hex') : '-');

function datumLine(url: string, d: CrawlDatum): string {
  return `${url} status=${d.status} retries=${d.retries} interval=${d.fetchInterval} score=${d.score.toFixed(6)} sig=${hex(d.signature)} meta=${Object.keys(d.metaData).sort().join(',')}`;
}

/** One line per record of a part: the URL and what identifies the record without its times. */
function recordLine(part: SegmentPartName, url: string, value: unknown): string {
  switch (part) {
    case 'crawl_generate':
    case 'crawl_fetch':
    case 'crawl_parse':
      return `${url} status=${(value as CrawlDatum).status}`;
    case 'content':
      return `${url} ${(value as { content: Uint8Array }).content.length} bytes`;
    default:
      return url;
  }
}

export async function snapshotCrawl(cwd: string, storageUrl: string): Promise<CrawlSnapshot> {
  const crawlDir = join(cwd, 'crawl');
  const ctx = createContext({ cwd, env: {}, logger: silentLogger, includeBuiltins: true, defines: storageUrl ? { 'storage.url': storageUrl } : {} });
  const snap: CrawlSnapshot = { crawlDb: [], linkDb: [], segments: [], index: [] };
  const duplicateOf = new Map<string, string>();
  try {
    const db = await ctx.storage.openCrawlDb(join(crawlDir, 'crawldb'));
    try {
      const entries: [string, CrawlDatum][] = [];
      if (await db.exists()) for await (const { url, value } of db.scan()) entries.push([url, value]);
      // dedup keeps a page of each set of duplicates by score, then fetch time — and, as Nutch, both of
      // two pages fetched in the same millisecond — which differs between two crawls: such a set is
      // compared by its signature, its size and that a page of it was kept, not by which URLs were
      const duplicated = new Set(entries.filter(([, d]) => d.status === CrawlStatus.STATUS_DB_DUPLICATE).map(([, d]) => hex(d.signature)));
      const kept = new Set<string>();
      for (const [url, d] of entries) {
        const sig = hex(d.signature);
        if (!duplicated.has(sig)) {
          snap.crawlDb.push(datumLine(url, d));
          continue;
        }
        duplicateOf.set(url, `duplicates:${sig}`);
        if (d.status !== CrawlStatus.STATUS_DB_DUPLICATE) kept.add(sig);
        const fetchedOrDuplicate = d.status === CrawlStatus.STATUS_DB_FETCHED || d.status === CrawlStatus.STATUS_DB_DUPLICATE;
        snap.crawlDb.push(datumLine(`duplicates:${sig}`, fetchedOrDuplicate ? { ...d, status: -1 } : d));
      }
      for (const sig of duplicated) snap.crawlDb.push(`duplicates:${sig} ${kept.has(sig) ? 'one or more kept' : 'NONE KEPT'}`);
      snap.crawlDb.sort();
    } finally {
      await db.close();
    }
    const linkDb = await ctx.storage.openLinkDb(join(crawlDir, 'linkdb'));
    try {
      if (await linkDb.exists()) for await (const { url, value } of linkDb.scan()) for (const l of value.inlinks) snap.linkDb.push(`${url} <- ${l.fromUrl} "${l.anchor}"`);
    } finally {
      await linkDb.close();
    }
    for (const path of await ctx.storage.listSegments(join(crawlDir, 'segments'))) {
      const seg = await ctx.storage.openSegment(path);
      try {
        const s: SegmentSnapshot = { name: seg.name, parts: {} };
        for (const part of SEGMENT_PARTS) {
          if (!(await seg.hasPart(part))) continue;
          const records: string[] = [];
          for await (const { url, value } of seg.read(part)) records.push(recordLine(part, url, value));
          s.parts[part] = { complete: await seg.isComplete(part), records: records.sort() };
        }
        snap.segments.push(s);
      } finally {
        await seg.close();
      }
    }
  } finally {
    await ctx.close();
  }
  snap.linkDb.sort();
  if (existsSync(join(crawlDir, 'index'))) {
    // every page title of the test web and of the harness's extra page says "page"
    const search = await runNutch(['search', crawlDir, 'page', '-n', '100000', '-json', ...(storageUrl ? ['-D', `storage.url=${storageUrl}`] : [])], { cwd });
    // no index yet: a first `nutch index` killed before it created one leaves only the directory
    const none = search.code !== 0 && /NUTCH_INDEX_NOT_FOUND/.test(search.stderr);
    if (search.code !== 0 && !none) throw new Error(`the index ${join(crawlDir, 'index')} does not open: ${search.stderr.slice(-1500)}`);
    const hits = search.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { url: string; title: string });
    const twice = hits.filter((h, i) => hits.findIndex((o) => o.url === h.url) !== i).map((h) => h.url);
    if (twice.length) throw new Error(`the index holds a document twice: ${twice.slice(0, 5).join(', ')}`);
    // a set of duplicates: indexed or not (clean removes the pages dedup marked, however many were kept)
    snap.index = [...new Set(hits.filter((h) => duplicateOf.has(h.url)).map((h) => `${duplicateOf.get(h.url)} ${h.title}`)), ...hits.filter((h) => !duplicateOf.has(h.url)).map((h) => `${h.url} ${h.title}`)].sort();
  }
  return snap;
}

/** Lines of `a` not in `b`, counting multiplicity (a record stored twice in `a` but once in `b` shows once). */
export function linesMissingFrom(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const l of b) left.set(l, (left.get(l) ?? 0) + 1);
  const out: string[] = [];
  for (const l of a) {
    const n = left.get(l) ?? 0;
    if (n === 0) out.push(l);
    else left.set(l, n - 1);
  }
  return out;
}

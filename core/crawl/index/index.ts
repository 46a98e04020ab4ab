/**
 * The index stage (Nutch's IndexingJob + IndexerMapReduce): for each segment, joins crawl_fetch,
 * parse_data and parse_text (and content with addBinaryContent) by URL with the CrawlDb and the
 * LinkDb in bounded batches, decides per URL (indexer-decision.ts), builds the document (id,
 * segment, digest, boost from ScoringFilter.indexerScore, then the IndexingFilters in order) and
 * sends it to every configured IndexWriter. An incomplete segment is skipped with a warning naming
 * the part. A writer failure rolls back every writer that can and fails naming the writer.
 */
import { dirname, resolve } from 'node:path';
import { NutchError, errorMessage } from '../../errors.js';
import type { Content } from '../../model/content.js';
import { cloneCrawlDatum, CrawlStatus, DatumMeta, type CrawlDatum } from '../../model/crawl-datum.js';
import type { Inlinks } from '../../model/inlinks.js';
import type { ParseData, ParseText } from '../../model/parse.js';
import type { NutchDocument } from '../../model/nutch-document.js';
import type { CrawlDb, Keyed, LinkDb, Segment, SegmentPartName } from '../../storage/interfaces.js';
import type { NutchContext } from '../context.js';
import { count, type Counters, type StageOptions } from '../progress.js';
import { decide, type IndexerFlags } from './indexer-decision.js';
import { LookaheadJoin } from './lookahead-join.js';
import { sanitizeDocument, startDocument } from './build-document.js';
import { openIndexWriters } from './open-index-writers.js';
import { IndexActions } from './index-actions.js';

export interface IndexArgs {
  crawlDb: string;
  linkDb?: string;
  segments: string[];
  /** -deleteGone: sets indexer.delete. */
  deleteGone?: boolean;
  /** -noCommit: writers are closed without commit(). */
  noCommit?: boolean;
  /** -filter / -normalize: URL filters and the `indexer` normalizer scope on each URL. */
  filter?: boolean;
  normalize?: boolean;
  addBinaryContent?: boolean;
  /** Where embedded writers store (`<crawl>/index`); default the CrawlDb's parent. */
  crawlDir?: string;
}

const REQUIRED_PARTS: SegmentPartName[] = ['crawl_fetch', 'parse_data', 'parse_text'];

function last<V>(list: V[]): V | undefined {
  return list.length ? list[list.length - 1] : undefined;
}

export async function index(ctx: NutchContext, args: IndexArgs, opts: StageOptions = {}): Promise<Counters> {
  const started = Date.now();
  const counters: Counters = {};
  const conf = ctx.conf;
  const flags: IndexerFlags = {
    delete: args.deleteGone === true || conf.getBoolean('indexer.delete', false),
    deleteRobotsNoIndex: conf.getBoolean('indexer.delete.robots.noindex', false),
    skipNotModified: conf.getBoolean('indexer.skip.notmodified', false),
  };
  const deleteSkipped = conf.getBoolean('indexer.delete.skipped.by.indexingfilter', false);
  const base64 = conf.getBoolean('indexer.binarycontent.as.base64', false);
  const batchSize = Math.max(1, conf.getInt('storage.batch.size', 1000));
  opts.onProgress?.({ type: 'stage-start', stage: 'index', args: { crawlDb: args.crawlDb, linkDb: args.linkDb, segments: args.segments } });

  // Every extension the stage uses is created before the first record is read (DESIGN §3).
  const indexingFilters = await ctx.extensions.indexingFilters();
  const scoringFilters = await ctx.extensions.scoringFilters();
  const normalizers = args.normalize ? await ctx.extensions.urlNormalizers('indexer') : null;
  const urlFilters = args.filter ? await ctx.extensions.urlFilters() : null;

  const writers = await openIndexWriters(ctx, { crawlDir: args.crawlDir ?? dirname(resolve(args.crawlDb)) });
  const actions = new IndexActions(writers, ctx.log);
  let crawlDb: CrawlDb | null = null;
  let linkDb: LinkDb | null = null;
  try {
    crawlDb = await openExistingCrawlDb(ctx, args.crawlDb);
    if (args.linkDb) {
      linkDb = await ctx.storage.openLinkDb(args.linkDb);
      if (!(await linkDb.exists())) {
        ctx.log.warn(`Ignoring linkDb for indexing, no linkDb found in path: ${args.linkDb}`, { file: args.linkDb });
        await linkDb.close();
        linkDb = null;
      }
    }
    for (const segPath of args.segments) {
      if (opts.signal?.aborted) break;
      const segment = await ctx.storage.openSegment(segPath);
      try {
        const parts = args.addBinaryContent ? [...REQUIRED_PARTS, 'content' as const] : REQUIRED_PARTS;
        const incomplete: string[] = [];
        for (const part of parts) if (!(await segment.isComplete(part))) incomplete.push(`${segment.path}/${part}`);
        if (incomplete.length) {
          ctx.log.warn(`Skipping segment ${segment.path}: ${incomplete.join(', ')} ${incomplete.length === 1 ? 'is' : 'are'} missing or incomplete (no _SUCCESS).`, { file: incomplete[0] });
          count(counters, 'skipped (incomplete segment)');
          opts.onProgress?.({ type: 'skip', stage: 'index', reason: 'incomplete segment', culprit: incomplete[0] });
          continue;
        }
        await indexSegment(segment, crawlDb);
      } finally {
        await segment.close();
      }
    }
    await actions.finish(!args.noCommit);
  } catch (err) {
    await actions.fail();
    throw err;
  } finally {
    await crawlDb?.close();
    await linkDb?.close();
  }
  Object.assign(counters, actions.counters);
  opts.onProgress?.({ type: 'stage-end', stage: 'index', counters, ms: Date.now() - started });
  return counters;

  async function indexSegment(segment: Segment, crawlDb: CrawlDb): Promise<void> {
    const join = <P extends 'parse_data' | 'parse_text' | 'content'>(part: P) =>
      new LookaheadJoin(segment.read(part, { batchSize })[Symbol.asyncIterator](), async (url) => last(await segment.get(part, url)), batchSize * 2);
    const data = join('parse_data');
    const text = join('parse_text');
    const content = args.addBinaryContent ? join('content') : null;
    let batch: Keyed<CrawlDatum>[] = [];
    try {
      for await (const rec of segment.read('crawl_fetch', { batchSize })) {
        batch.push(rec);
        if (batch.length >= batchSize) {
          await processBatch(segment, crawlDb, batch, data, text, content);
          batch = [];
          if (opts.signal?.aborted) return;
        }
      }
      if (batch.length) await processBatch(segment, crawlDb, batch, data, text, content);
    } finally {
      await data.close();
      await text.close();
      await content?.close();
    }
    await indexSubDocuments(segment, crawlDb);
  }

  /**
   * Sub-documents a parser emitted (feed entries, archive members) have no crawl_fetch record: their
   * fetch_success datum is in crawl_parse, as Nutch's ParseOutputFormat writes it, and Nutch's
   * IndexerMapReduce takes the fetch datum from either part. Read them after the fetched pages.
   */
  async function indexSubDocuments(segment: Segment, crawlDb: CrawlDb): Promise<void> {
    const direct = <P extends 'parse_data' | 'parse_text' | 'content'>(part: P) => ({ take: async (url: string) => last(await segment.get(part, url)) });
    let batch: Keyed<CrawlDatum>[] = [];
    const flush = async () => {
      const fetched = await Promise.all(batch.map(async (r) => (await segment.get('crawl_fetch', r.url)).length > 0));
      const subs = batch.filter((_, i) => !fetched[i]);
      batch = [];
      if (subs.length) await processBatch(segment, crawlDb, subs, direct('parse_data'), direct('parse_text'), args.addBinaryContent ? direct('content') : null);
    };
    let previous = '';
    for await (const rec of segment.read('crawl_parse', { batchSize })) {
      if (rec.value.status !== CrawlStatus.STATUS_FETCH_SUCCESS || rec.url === previous) continue;
      previous = rec.url;
      batch.push(rec);
      if (batch.length >= batchSize) {
        await flush();
        if (opts.signal?.aborted) return;
      }
    }
    if (batch.length) await flush();
  }

  async function processBatch(
    segment: Segment,
    crawlDb: CrawlDb,
    batch: Keyed<CrawlDatum>[],
    data: Pick<LookaheadJoin<ParseData>, 'take'>,
    text: Pick<LookaheadJoin<ParseText>, 'take'>,
    content: Pick<LookaheadJoin<Content>, 'take'> | null,
  ): Promise<void> {
    const urls = batch.map((r) => r.url);
    const dbData = await crawlDb.getMany(urls);
    const inlinks = await inlinksOf(urls);
    for (const { url, value: fetched } of batch) {
      const parseData = (await data.take(url)) ?? null;
      const parseText = (await text.take(url)) ?? null;
      const binary = content ? await content.take(url) : undefined;
      const key = mapUrl(url);
      if (key === null) {
        count(counters, 'skipped (filtered)');
        continue;
      }
      const dbDatum = dbData.get(url) ?? null;
      const decision = decide({ dbDatum, fetchDatum: fetched, parseData, parseText }, flags);
      if (decision.action === 'delete') {
        await actions.delete(key, decision.counter);
        continue;
      }
      if (decision.action === 'skip') {
        if (decision.counter) count(counters, decision.counter);
        continue;
      }
      const doc = await buildDocument(key, segment, parseData!, parseText!, dbDatum, fetched, inlinks.get(url) ?? null, binary);
      if (doc === 'error') continue;
      if (doc === null) {
        if (deleteSkipped) await actions.delete(key, 'deleted (IndexingFilter)');
        else count(counters, 'skipped (IndexingFilter)');
        continue;
      }
      await actions.write(doc);
    }
    opts.onProgress?.({ type: 'progress', stage: 'index', done: actions.done, counters: { ...counters, ...actions.counters } });
  }

  async function inlinksOf(urls: string[]): Promise<Map<string, Inlinks>> {
    if (!linkDb) return new Map();
    if (linkDb.getMany) return linkDb.getMany(urls);
    const out = new Map<string, Inlinks>();
    for (const u of urls) {
      const v = await linkDb.get(u);
      if (v) out.set(u, v);
    }
    return out;
  }

  function mapUrl(url: string): string | null {
    let u: string | null = url;
    if (normalizers) u = normalizers.normalize(u);
    if (u !== null && urlFilters) u = urlFilters.filter(u);
    return u;
  }

  async function buildDocument(
    key: string, segment: Segment, parseData: ParseData, parseText: ParseText,
    dbDatum: CrawlDatum | null, fetched: CrawlDatum, inlinks: Inlinks | null, binary: Content | undefined,
  ): Promise<NutchDocument | null | 'error'> {
    const fetchDatum = cloneCrawlDatum(fetched);
    let doc: NutchDocument | null = startDocument(key, segment.name, parseData, dbDatum, fetchDatum);
    const parse = { text: parseText.text, data: parseData, isCanonical: true };
    try {
      doc.weight = scoringFilters.indexerScore(key, doc, dbDatum, fetchDatum, parse, inlinks, 1.0);
    } catch (err) {
      count(counters, 'errors (ScoringFilter)');
      ctx.log.warn(`Error calculating score ${key}: ${errorMessage(err)}`, { url: key, code: 'NUTCH_EXTENSION_FAILED' });
      return 'error';
    }
    doc.fields.boost = [String(doc.weight)];
    if (dbDatum) {
      // As Nutch: indexing filters may want the signature and the representative URL of the CrawlDb.
      fetchDatum.signature = dbDatum.signature;
      const repr = dbDatum.metaData[DatumMeta.WRITABLE_REPR_URL_KEY];
      if (repr) fetchDatum.metaData[DatumMeta.WRITABLE_REPR_URL_KEY] = [...repr];
    }
    try {
      doc = await indexingFilters.filter(doc, { url: key, parse, dbDatum, fetchDatum, inlinks });
    } catch (err) {
      count(counters, 'errors (IndexingFilter)');
      ctx.log.warn(`Error indexing ${key}: ${errorMessage(err)}`, { url: key, code: 'NUTCH_EXTENSION_FAILED', ...(isTagged(err) ? err.details : {}) });
      return 'error';
    }
    if (!doc) return null;
    if (binary) doc.fields.binaryContent = [base64 ? Buffer.from(binary.content).toString('base64') : Buffer.from(binary.content).toString('utf8')];
    return sanitizeDocument(doc);
  }
}

/** Opens the CrawlDb, failing (as Nutch) when it was never written. */
export async function openExistingCrawlDb(ctx: NutchContext, path: string): Promise<CrawlDb> {
  const db = await ctx.storage.openCrawlDb(path);
  if (!(await db.exists())) {
    await db.close();
    throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `CrawlDb ${path} does not exist; run nutch inject first, or check the path.`, { file: path });
  }
  return db;
}

function isTagged(err: unknown): err is NutchError {
  return typeof err === 'object' && err !== null && 'details' in err;
}

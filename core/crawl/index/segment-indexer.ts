/**
 * IndexerMapReduce for one segment at a time: joins crawl_fetch, parse_data and parse_text (and
 * content with addBinaryContent) by URL with the CrawlDb and the LinkDb in bounded batches, decides
 * per URL (indexer-decision.ts), builds the document (id, segment, digest, boost from
 * ScoringFilter.indexerScore, then the IndexingFilters in order) and hands it to the IndexActions.
 */
import { NutchError, errorMessage } from '../../errors.js';
import type { Content } from '../../model/content.js';
import { cloneCrawlDatum, CrawlStatus, DatumMeta, type CrawlDatum } from '../../model/crawl-datum.js';
import type { Inlinks } from '../../model/inlinks.js';
import type { ParseData, ParseText } from '../../model/parse.js';
import type { NutchDocument } from '../../model/nutch-document.js';
import type { CrawlDb, Keyed, LinkDb, Segment } from '../../storage/interfaces.js';
import type { IndexingFilters } from '../../extension-points/indexing-filter.js';
import type { ScoringFilters } from '../../extension-points/scoring-filter.js';
import type { UrlRewrite } from '../../extension-points/normalize-then-filter.js';
import type { StageRun } from '../stage-run.js';
import { decide, type IndexerFlags } from './indexer-decision.js';
import { LookaheadJoin } from './lookahead-join.js';
import { sanitizeDocument, startDocument } from './build-document.js';
import type { IndexActions } from './index-actions.js';

export interface SegmentIndexerOptions {
  flags: IndexerFlags;
  /** indexer.delete.skipped.by.indexingfilter */
  deleteSkipped: boolean;
  /** indexer.binarycontent.as.base64 */
  base64: boolean;
  addBinaryContent: boolean;
  batchSize: number;
  indexingFilters: IndexingFilters;
  scoringFilters: ScoringFilters;
  /** -normalize / -filter of each URL; null when neither. */
  rewrite: UrlRewrite | null;
}

type Take<V> = Pick<LookaheadJoin<V>, 'take' | 'find'>;

function last<V>(list: V[]): V | undefined {
  return list.length ? list[list.length - 1] : undefined;
}

export class SegmentIndexer {
  constructor(
    private readonly run: StageRun,
    private readonly crawlDb: CrawlDb,
    private readonly linkDb: LinkDb | null,
    private readonly actions: IndexActions,
    private readonly o: SegmentIndexerOptions,
  ) {}

  /** The fetched pages of the segment, then its sub-documents; returns early on a polite stop. */
  async indexSegment(segment: Segment): Promise<void> {
    const { batchSize } = this.o;
    const join = <P extends 'parse_data' | 'parse_text' | 'content'>(part: P) =>
      new LookaheadJoin(segment.read(part, { batchSize })[Symbol.asyncIterator](), async (url) => last(await segment.get(part, url)), batchSize * 2);
    const data = join('parse_data');
    const text = join('parse_text');
    const content = this.o.addBinaryContent ? join('content') : null;
    let batch: Keyed<CrawlDatum>[] = [];
    try {
      for await (const rec of segment.read('crawl_fetch', { batchSize })) {
        batch.push(rec);
        if (batch.length >= batchSize) {
          await this.processBatch(segment, batch, data, text, content);
          batch = [];
          if (this.run.stopping) return;
        }
      }
      if (batch.length) await this.processBatch(segment, batch, data, text, content);
    } finally {
      await data.close();
      await text.close();
      await content?.close();
    }
    await this.indexSubDocuments(segment);
  }

  /**
   * Sub-documents a parser emitted (feed entries, archive members) have no crawl_fetch record: their
   * fetch_success datum is in crawl_parse, as Nutch's ParseOutputFormat writes it, and Nutch's
   * IndexerMapReduce takes the fetch datum from either part. Read them after the fetched pages.
   */
  private async indexSubDocuments(segment: Segment): Promise<void> {
    const { batchSize } = this.o;
    const direct = <P extends 'parse_data' | 'parse_text' | 'content'>(part: P) => {
      const take = async (url: string) => last(await segment.get(part, url));
      return { take, find: take };
    };
    let batch: Keyed<CrawlDatum>[] = [];
    const flush = async () => {
      const fetched = await Promise.all(batch.map(async (r) => (await segment.get('crawl_fetch', r.url)).length > 0));
      const subs = batch.filter((_, i) => !fetched[i]);
      batch = [];
      if (subs.length) await this.processBatch(segment, subs, direct('parse_data'), direct('parse_text'), this.o.addBinaryContent ? direct('content') : null);
    };
    let previous = '';
    for await (const rec of segment.read('crawl_parse', { batchSize })) {
      if (rec.value.status !== CrawlStatus.STATUS_FETCH_SUCCESS || rec.url === previous) continue;
      previous = rec.url;
      batch.push(rec);
      if (batch.length >= batchSize) {
        await flush();
        if (this.run.stopping) return;
      }
    }
    if (batch.length) await flush();
  }

  private async processBatch(segment: Segment, batch: Keyed<CrawlDatum>[], data: Take<ParseData>, text: Take<ParseText>, content: Take<Content> | null): Promise<void> {
    const { run, actions } = this;
    const urls = batch.map((r) => r.url);
    const dbData = await this.crawlDb.getMany(urls);
    const inlinks = await this.inlinksOf(urls);
    for (const { url, value: fetched } of batch) {
      // parse skips what was not fetched successfully (ParseSegment): no read-ahead for those pages
      const parsed = fetched.status === CrawlStatus.STATUS_FETCH_SUCCESS;
      const parseData = (await (parsed ? data.take(url) : data.find(url))) ?? null;
      const parseText = (await (parsed ? text.take(url) : text.find(url))) ?? null;
      const binary = content ? await content.take(url) : undefined;
      const key = this.o.rewrite ? this.o.rewrite(url) : url;
      if (key === null) {
        run.count('skipped (filtered)');
        continue;
      }
      const dbDatum = dbData.get(url) ?? null;
      const decision = decide({ dbDatum, fetchDatum: fetched, parseData, parseText }, this.o.flags);
      if (decision.action === 'delete') {
        await actions.delete(key, decision.counter);
        continue;
      }
      if (decision.action === 'skip') {
        if (decision.counter) run.count(decision.counter);
        continue;
      }
      const doc = await this.buildDocument(key, segment, parseData!, parseText!, dbDatum, fetched, inlinks.get(url) ?? null, binary);
      if (doc === 'error') continue;
      if (doc === null) {
        if (this.o.deleteSkipped) await actions.delete(key, 'deleted (IndexingFilter)');
        else run.count('skipped (IndexingFilter)');
        continue;
      }
      await actions.write(doc);
    }
    run.progress(actions.done, undefined, { ...run.counters, ...actions.counters });
  }

  private async inlinksOf(urls: string[]): Promise<Map<string, Inlinks>> {
    const { linkDb } = this;
    if (!linkDb) return new Map();
    if (linkDb.getMany) return linkDb.getMany(urls);
    const out = new Map<string, Inlinks>();
    for (const u of urls) {
      const v = await linkDb.get(u);
      if (v) out.set(u, v);
    }
    return out;
  }

  private async buildDocument(
    key: string, segment: Segment, parseData: ParseData, parseText: ParseText,
    dbDatum: CrawlDatum | null, fetched: CrawlDatum, inlinks: Inlinks | null, binary: Content | undefined,
  ): Promise<NutchDocument | null | 'error'> {
    const { run } = this;
    const fetchDatum = cloneCrawlDatum(fetched);
    let doc: NutchDocument | null = startDocument(key, segment.name, parseData, dbDatum, fetchDatum);
    const parse = { text: parseText.text, data: parseData, isCanonical: true };
    try {
      doc.weight = this.o.scoringFilters.indexerScore(key, doc, dbDatum, fetchDatum, parse, inlinks, 1.0);
    } catch (err) {
      run.count('errors (ScoringFilter)');
      run.log.warn(`Error calculating score ${key}: ${errorMessage(err)}`, { url: key, code: 'NUTCH_EXTENSION_FAILED' });
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
      doc = await this.o.indexingFilters.filter(doc, { url: key, parse, dbDatum, fetchDatum, inlinks });
    } catch (err) {
      run.count('errors (IndexingFilter)');
      run.log.warn(`Error indexing ${key}: ${errorMessage(err)}`, { url: key, code: 'NUTCH_EXTENSION_FAILED', ...(isTagged(err) ? err.details : {}) });
      return 'error';
    }
    if (!doc) return null;
    if (binary) doc.fields.binaryContent = [this.o.base64 ? Buffer.from(binary.content).toString('base64') : Buffer.from(binary.content).toString('utf8')];
    return sanitizeDocument(doc);
  }
}

function isTagged(err: unknown): err is NutchError {
  return typeof err === 'object' && err !== null && 'details' in err;
}

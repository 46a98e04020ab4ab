/**
 * One Content in, the segment records out: the skip rules of Nutch's ParseSegment (content not fetched
 * successfully; truncated content with parser.skip.truncated), a parse in the worker pool, then
 * ParseOutputFormat's records. The parse stage and the fetcher's inline parse (fetcher.parse) both use
 * it, so a page parsed while fetching is written exactly as `nutch parse` would write it.
 */
import type { NutchContext } from '../context.js';
import type { Content } from '../../model/content.js';
import { ContentMeta } from '../../model/content.js';
import { CrawlStatus, DatumMeta } from '../../model/crawl-datum.js';
import { getMetaIgnoreCase } from '../../model/metadata.js';
import { ParseStatusCode } from '../../model/parse.js';
import type { ParseOutcome } from '../../parse/parse-util.js';
import { parsePoolOf } from '../../parse/parsers.js';
import type { ParsePool } from '../../parse/pool.js';
import { ParseOutputProcessor, emptyOutlinkStats, type OutlinkStats, type ParseOutputOptions, type ParseOutputRecords } from './parse-output.js';

export type SkipReason = 'noFetchStatus' | 'notFetched' | 'truncated';

export interface SegmentParseResult {
  /** Set when the content was skipped (nothing to write). */
  skipped?: SkipReason;
  outcome?: ParseOutcome;
  records?: ParseOutputRecords;
  /** Signature of the canonical parse (the fetcher copies it into its crawl_fetch datum). */
  signature: Uint8Array | null;
  /** 'success' | 'failed' | 'notparsed', as Nutch's ParseStatus major codes. */
  status?: string;
}

const MAJOR_NAMES: Record<number, string> = { [ParseStatusCode.NOTPARSED]: 'notparsed', [ParseStatusCode.SUCCESS]: 'success', [ParseStatusCode.FAILED]: 'failed' };

/**
 * Why ParseSegment would not parse this content, or null: no fetch status (`_fst_`, which the fetcher
 * writes into content metadata), a fetch status other than fetch_success, or truncation.
 */
export function skipReason(content: Content, skipTruncated: boolean): SkipReason | null {
  const fetchStatus = content.metadata[DatumMeta.FETCH_STATUS_KEY]?.[0];
  if (fetchStatus === undefined) return 'noFetchStatus';
  if (Number(fetchStatus) !== CrawlStatus.STATUS_FETCH_SUCCESS) return 'notFetched';
  if (skipTruncated && isTruncated(content)) return 'truncated';
  return null;
}

/** Nutch's ParseSegment.isTruncated: flagged by the protocol, or shorter than its Content-Length. */
export function isTruncated(content: Content): boolean {
  const flag = content.metadata[ContentMeta.TRUNCATED]?.[0];
  if (flag !== undefined && flag !== 'false' && flag !== '') return true;
  const declared = getMetaIgnoreCase(content.metadata, ContentMeta.CONTENT_LENGTH);
  if (declared === undefined || !/^\d+$/.test(declared.trim())) return false;
  // Content-Encoding (gzip) makes the header count compressed bytes; only an identity body compares.
  // protocol-http decodes the body and moves the header to Content-Encoding-Original.
  if (getMetaIgnoreCase(content.metadata, 'Content-Encoding') || getMetaIgnoreCase(content.metadata, 'Content-Encoding-Original')) return false;
  return Number(declared) > content.content.length;
}

/**
 * Starts the parse workers that a later SegmentParser.create() (with the same `workers`) will use,
 * without waiting for them: the crawl loop starts them before a fetch that a parse stage follows, so
 * their start-up (modules, plugins) overlaps the fetch's waiting on the network. A worker that cannot
 * start fails that create(), as it would have without this.
 */
export function startParseWorkers(ctx: NutchContext, opts: { workers?: number } = {}): void {
  parsePoolOf(ctx, { defaultSize: opts.workers }).ready().catch(() => {});
}

export class SegmentParser {
  readonly stats: OutlinkStats = emptyOutlinkStats();
  private readonly skipTruncated: boolean;

  private constructor(ctx: NutchContext, readonly pool: ParsePool, readonly processor: ParseOutputProcessor, private readonly lendBytes: boolean) {
    this.skipTruncated = ctx.conf.getBoolean('parser.skip.truncated', true);
  }

  /**
   * Starts a parse worker and every chain the output needs (plugin start failures surface here); the
   * pool's other workers start as pages queue up, unless startParseWorkers() started them already.
   * `lendBytes`: the content was read from a segment and is not written again, so its bytes are lent
   * to the worker (ParseRequest.lendBytes) instead of copied; the fetcher's inline parse writes the
   * content after parsing it and keeps the copy.
   */
  static async create(ctx: NutchContext, opts: ParseOutputOptions & { workers?: number; lendBytes?: boolean } = {}): Promise<SegmentParser> {
    const pool = parsePoolOf(ctx, { defaultSize: opts.workers });
    await pool.ready(1);
    const processor = await ParseOutputProcessor.create(ctx, opts);
    return new SegmentParser(ctx, pool, processor, !!opts.lendBytes);
  }

  async parse(content: Content, segmentName: string): Promise<SegmentParseResult> {
    const skipped = skipReason(content, this.skipTruncated);
    if (skipped) return { skipped, signature: null };
    const outcome = await this.pool.parse(content, { lendBytes: this.lendBytes });
    const records = this.processor.recordsFor(content, outcome, segmentName, this.stats);
    const canonical = outcome.result.parses[content.url] ?? Object.values(outcome.result.parses)[0];
    const status = MAJOR_NAMES[canonical?.data.status.majorCode ?? ParseStatusCode.FAILED] ?? 'failed';
    return { outcome, records, signature: outcome.signature, status };
  }
}

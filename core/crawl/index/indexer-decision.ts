/**
 * What the indexer does with one URL, in today's Nutch IndexerMapReduce order: robots noindex
 * delete, failed-parse delete, gone / redirect delete (indexer.delete), nothing without fetch and
 * parse output, duplicate delete (indexer.delete), skip not-modified (indexer.skip.notmodified),
 * skip unsuccessful fetch or parse; otherwise index. Counter names are Nutch's IndexerStatus ones.
 */
import { CrawlStatus, type CrawlDatum } from '../../model/crawl-datum.js';
import { ParseMeta, ParseStatusCode, type ParseData, type ParseText } from '../../model/parse.js';
import { getMeta } from '../../model/metadata.js';

export interface IndexerInputs {
  dbDatum: CrawlDatum | null;
  fetchDatum: CrawlDatum | null;
  parseData: ParseData | null;
  parseText: ParseText | null;
}

export interface IndexerFlags {
  /** indexer.delete (-deleteGone). */
  delete: boolean;
  /** indexer.delete.robots.noindex. */
  deleteRobotsNoIndex: boolean;
  /** indexer.skip.notmodified. */
  skipNotModified: boolean;
}

export type IndexerDecision =
  | { action: 'index' }
  | { action: 'delete'; counter: string }
  | { action: 'skip'; counter: string | null };

export function hasRobotsNoIndex(parseData: ParseData): boolean {
  if (getMeta(parseData.parseMeta, ParseMeta.ROBOTS_NOINDEX) === 'true') return true;
  const robots = getMeta(parseData.parseMeta, 'robots') ?? getMeta(parseData.contentMeta, 'robots');
  return robots !== undefined && robots.toLowerCase().includes('noindex');
}

export function decide(inputs: IndexerInputs, flags: IndexerFlags): IndexerDecision {
  const { dbDatum, parseData, parseText } = inputs;
  // As Nutch: a not-modified fetch carries no content, so it does not count as fetch output.
  const fetchDatum = inputs.fetchDatum?.status === CrawlStatus.STATUS_FETCH_NOTMODIFIED ? null : inputs.fetchDatum;
  const dbStatus = dbDatum?.status;

  if (flags.deleteRobotsNoIndex && parseData && hasRobotsNoIndex(parseData)) return { action: 'delete', counter: 'deleted (robots=noindex)' };

  if (flags.delete && fetchDatum && parseData && parseData.status.majorCode === ParseStatusCode.FAILED && fetchDatum.status === CrawlStatus.STATUS_FETCH_SUCCESS) {
    return { action: 'delete', counter: 'deleted (parse failed)' };
  }

  if (flags.delete && fetchDatum) {
    if (fetchDatum.status === CrawlStatus.STATUS_FETCH_GONE || dbStatus === CrawlStatus.STATUS_DB_GONE) return { action: 'delete', counter: 'deleted (gone)' };
    if (
      fetchDatum.status === CrawlStatus.STATUS_FETCH_REDIR_PERM || fetchDatum.status === CrawlStatus.STATUS_FETCH_REDIR_TEMP ||
      dbStatus === CrawlStatus.STATUS_DB_REDIR_PERM || dbStatus === CrawlStatus.STATUS_DB_REDIR_TEMP
    ) return { action: 'delete', counter: 'deleted (redirects)' };
  }

  if (!fetchDatum || !parseText || !parseData) return { action: 'skip', counter: null };

  if (flags.delete && dbStatus === CrawlStatus.STATUS_DB_DUPLICATE) return { action: 'delete', counter: 'deleted (duplicates)' };

  if (flags.skipNotModified && dbStatus === CrawlStatus.STATUS_DB_NOTMODIFIED) return { action: 'skip', counter: 'skipped (not modified)' };

  if (parseData.status.majorCode !== ParseStatusCode.SUCCESS || fetchDatum.status !== CrawlStatus.STATUS_FETCH_SUCCESS) {
    return { action: 'skip', counter: 'skipped (unsuccessful)' };
  }
  return { action: 'index' };
}

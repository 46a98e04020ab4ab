/**
 * Nutch's CrawlDbReducer as a pure function: what one URL's CrawlDb entry becomes, given its old
 * datum and what the segments say about it (the fetch datum, the linked datums of its inlinks, the
 * signature and parse-meta datums). No storage here; updatedb feeds it one URL group at a time.
 *
 * CrawlDbValues (crawl-db-values.ts) collects a group's datums as Nutch's reduce loop classifies
 * them; reduceCrawlDatum picks the datum to start from and the transition for its status
 * (crawl-db-transitions.ts), then lets the ScoringFilters update the score.
 */
import { CrawlStatus, DatumMeta, cloneCrawlDatum, statusName, type CrawlDatum } from '../../model/crawl-datum.js';
import type { Metadata } from '../../model/metadata.js';
import type { FetchSchedule } from '../../extension-points/fetch-schedule.js';
import type { ScoringFilters } from '../../extension-points/scoring-filter.js';
import type { Logger } from '../../log.js';
import { fetchedTransition, goneTransition, linkedTransition, retryTransition, type TransitionInput } from './crawl-db-transitions.js';

export interface CrawlDbReducerInput {
  /** The CrawlDb's datum (the latest by fetch time when several), or null for a new URL. */
  old: CrawlDatum | null;
  /** The segments' fetch datum (the latest by fetch time), or null. */
  fetch: CrawlDatum | null;
  /** Linked datums (inlinks), highest score first, at most db.update.max.inlinks. */
  linked: CrawlDatum[];
  /** Signature from crawl_parse (STATUS_SIGNATURE), or null. */
  signature: Uint8Array | null;
  /** Metadata from crawl_parse (STATUS_PARSE_META), or null. */
  parseMeta: Metadata | null;
}

export interface CrawlDbReducerEnv {
  schedule: FetchSchedule;
  scoring: Pick<ScoringFilters, 'initialScore' | 'updateDbScore' | 'orphanedScore'>;
  /** db.fetch.retry.max */
  retryMax: number;
  /** db.update.additions.allowed (false with -noAdditions) */
  additionsAllowed: boolean;
  /** db.fetch.interval.max, seconds */
  maxInterval: number;
  log?: Pick<Logger, 'warn'>;
}

/**
 * The new CrawlDb datum of a URL, or null when nothing is to be written: a new URL while additions
 * are not allowed, a lone signature, or no data at all. With no new data the old datum comes back
 * unchanged except for ScoringFilter.orphanedScore. Inputs are never mutated.
 */
export function reduceCrawlDatum(url: string, input: CrawlDbReducerInput, env: CrawlDbReducerEnv): CrawlDatum | null {
  const { old, linked } = input;
  // if it doesn't already exist, skip it
  if (!old && !env.additionsAllowed) return null;
  // if there is no fetched datum, perhaps there is a link
  const fetch = input.fetch ?? linked[0] ?? null;
  if (!fetch) return orphanedDatum(url, old, env);
  const t: TransitionInput = {
    url, old, fetch, env,
    signature: input.signature ?? fetch.signature,
    parseMeta: input.parseMeta,
    prevFetchTime: old ? old.fetchTime : 0,
    prevModifiedTime: old ? old.modifiedTime : 0,
  };
  const latest = latestDatum(fetch, old);
  let result: CrawlDatum;
  switch (fetch.status) {
    case CrawlStatus.STATUS_LINKED:
      result = linkedTransition(t, latest);
      break;
    case CrawlStatus.STATUS_FETCH_SUCCESS:
    case CrawlStatus.STATUS_FETCH_REDIR_TEMP:
    case CrawlStatus.STATUS_FETCH_REDIR_PERM:
    case CrawlStatus.STATUS_FETCH_NOTMODIFIED:
      result = fetchedTransition(t, latest);
      break;
    case CrawlStatus.STATUS_SIGNATURE:
      env.log?.warn(`Lone CrawlDatum.STATUS_SIGNATURE: ${url.slice(0, 300)}`);
      return null;
    case CrawlStatus.STATUS_FETCH_RETRY:
      result = retryTransition(t, latest);
      break;
    case CrawlStatus.STATUS_FETCH_GONE:
      result = goneTransition(t, latest);
      break;
    default:
      // Nutch throws here; one bad record must not fail the whole update, so the old datum stays.
      env.log?.warn(`Unknown fetch status ${statusName(fetch.status)} for ${url.slice(0, 300)}; CrawlDb entry left as it was`);
      return old ? cloneCrawlDatum(old) : null;
  }
  try {
    env.scoring.updateDbScore(url, old, result, linked);
  } catch (err) {
    env.log?.warn(`Couldn't update score, key=${url.slice(0, 300)}: ${(err as Error).message}`);
  }
  // remove generation time, if any
  delete result.metaData[DatumMeta.GENERATE_TIME_KEY];
  return result;
}

/** No new data: only the orphan score may change (pages not fetched and without inlinks). */
function orphanedDatum(url: string, old: CrawlDatum | null, env: CrawlDbReducerEnv): CrawlDatum | null {
  if (!old) {
    env.log?.warn(`Missing fetch and old value for ${url.slice(0, 300)}`);
    return null;
  }
  const kept = cloneCrawlDatum(old);
  try {
    env.scoring.orphanedScore(url, kept);
  } catch (err) {
    env.log?.warn(`Couldn't update orphaned score, key=${url.slice(0, 300)}: ${(err as Error).message}`);
  }
  return kept;
}

/**
 * Initialize with the latest version, be it fetch or link: a copy of it, over the old datum's
 * metadata, keeping the old modified time when the new one has none.
 */
function latestDatum(fetch: CrawlDatum, old: CrawlDatum | null): CrawlDatum {
  const result = cloneCrawlDatum(fetch);
  if (!old) return result;
  if (Object.keys(old.metaData).length > 0) {
    const merged: Metadata = {};
    for (const [k, v] of Object.entries(old.metaData)) merged[k] = [...v];
    for (const [k, v] of Object.entries(result.metaData)) merged[k] = v;
    result.metaData = merged;
  }
  // the most recent valid modified time
  if (old.modifiedTime > 0 && fetch.modifiedTime === 0) result.modifiedTime = old.modifiedTime;
  return result;
}

/**
 * The Generator's per-record checks (Nutch's Selector mapper): URL filters, generate.restrict.status,
 * FetchSchedule.shouldFetch, the crawl.gen.delay wait after an earlier generate, generate.min.interval,
 * then the sort value (ScoringFilter.generatorSortValue) against generate.min.score. Each rejection
 * is counted under Nutch's counter name.
 */
import { DatumMeta, cloneCrawlDatum, statusName, type CrawlDatum } from '../../model/crawl-datum.js';
import { getMeta } from '../../model/metadata.js';
import type { FetchSchedule } from '../../extension-points/fetch-schedule.js';
import type { ScoringFilters } from '../../extension-points/scoring-filter.js';
import type { URLFilters } from '../../extension-points/url-filter.js';
import { count, type Counters } from '../progress.js';

export interface SelectorOptions {
  filters: URLFilters | null;
  restrictStatus: string;
  schedule: FetchSchedule;
  scoring: ScoringFilters;
  curTime: number;
  genDelay: number;
  minInterval: number;
  minScore: number;
  counters: Counters;
}

/** selectSortValue's answer for a record that passes every check run but could not be selected (see `admits`). */
export const NOT_ADMITTED = Symbol('not admitted');

/**
 * The sort value of a selectable record, or null (counted) when it is not selectable.
 *
 * With `admits` (a bounded selection: topN candidates are kept already), the URL filters run last and
 * only for a record whose sort value could still get it selected; one that could not is answered
 * NOT_ADMITTED without being filtered — filtering it could not change the segment, and the filter
 * chain is most of the cost of a record. Without `admits`, the filters run first, as in Nutch.
 */
export function selectSortValue(url: string, stored: CrawlDatum, o: SelectorOptions, admits?: (sort: number) => boolean): number | null | typeof NOT_ADMITTED {
  if (!admits && o.filters && o.filters.filter(url) === null) {
    count(o.counters, 'URL_FILTERS_REJECTED');
    return null;
  }
  if (o.restrictStatus && statusName(stored.status) !== o.restrictStatus) {
    count(o.counters, 'STATUS_REJECTED');
    return null;
  }
  // shouldFetch may adjust the datum; the scanned record is a fresh copy nobody writes back
  const datum = stored;
  if (!o.schedule.shouldFetch(url, datum, o.curTime)) {
    count(o.counters, 'SCHEDULE_REJECTED');
    return null;
  }
  const generated = Number(getMeta(datum.metaData, DatumMeta.GENERATE_TIME_KEY));
  if (Number.isFinite(generated) && generated + o.genDelay > o.curTime) {
    count(o.counters, 'WAIT_FOR_UPDATE');
    return null;
  }
  if (o.minInterval !== -1 && datum.fetchInterval > o.minInterval) {
    count(o.counters, 'INTERVAL_REJECTED');
    return null;
  }
  const sort = o.scoring.generatorSortValue(url, datum, 1.0);
  if (!(sort >= o.minScore)) {
    count(o.counters, 'SCORE_TOO_LOW');
    return null;
  }
  if (admits) {
    if (!admits(sort)) return NOT_ADMITTED;
    if (o.filters && o.filters.filter(url) === null) {
      count(o.counters, 'URL_FILTERS_REJECTED');
      return null;
    }
  }
  return sort;
}

/** The datum as written to crawl_generate: shouldFetch's adjustments applied, the generate time set. */
export function generatedDatum(url: string, stored: CrawlDatum, schedule: FetchSchedule, curTime: number, genTime: number): CrawlDatum {
  const datum = cloneCrawlDatum(stored);
  schedule.shouldFetch(url, datum, curTime);
  datum.metaData[DatumMeta.GENERATE_TIME_KEY] = [String(genTime)];
  return datum;
}

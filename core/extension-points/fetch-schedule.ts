/**
 * FetchSchedule — a single implementation, selected by `db.fetch.schedule.class` (extension id or
 * Nutch class name). Methods follow Nutch's FetchSchedule; times are epoch ms, intervals seconds.
 */
import type { CrawlDatum } from '../model/crawl-datum.js';

export const FetchScheduleState = { STATUS_UNKNOWN: 0, STATUS_MODIFIED: 1, STATUS_NOTMODIFIED: 2 } as const;

export interface FetchSchedule {
  initializeSchedule(url: string, datum: CrawlDatum): CrawlDatum;
  setFetchSchedule(url: string, datum: CrawlDatum, prevFetchTime: number, prevModifiedTime: number, fetchTime: number, modifiedTime: number, state: number): CrawlDatum;
  setPageGoneSchedule(url: string, datum: CrawlDatum, prevFetchTime: number, prevModifiedTime: number, fetchTime: number): CrawlDatum;
  setPageRetrySchedule(url: string, datum: CrawlDatum, prevFetchTime: number, prevModifiedTime: number, fetchTime: number): CrawlDatum;
  calculateLastFetchTime(datum: CrawlDatum): number;
  shouldFetch(url: string, datum: CrawlDatum, curTime: number): boolean;
  forceRefetch(url: string, datum: CrawlDatum, asap: boolean): CrawlDatum;
}

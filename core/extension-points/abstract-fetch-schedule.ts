/**
 * Nutch's AbstractFetchSchedule: what every schedule shares. Times are epoch ms, intervals seconds.
 * Subclasses override setFetchSchedule (and call super's, which resets the retry counter). A core
 * class in Nutch (org.apache.nutch.crawl), so it is part of the plugin-author surface: schedule-default,
 * schedule-adaptive and third-party schedules extend it.
 */
import { CrawlStatus, type CrawlDatum } from '../model/crawl-datum.js';
import type { PluginContext } from '../plugin/plugin-context.js';
import type { FetchSchedule } from './fetch-schedule.js';

export const SECONDS_PER_DAY = 24 * 3600;

export abstract class AbstractFetchSchedule implements FetchSchedule {
  protected readonly defaultInterval: number;
  protected readonly maxInterval: number;

  constructor(ctx: PluginContext) {
    // db.default.fetch.interval (days) is Nutch's deprecated name; honoured only when the new one is 0.
    const oldDefault = ctx.conf.getInt('db.default.fetch.interval', 0);
    const interval = ctx.conf.getInt('db.fetch.interval.default', 0);
    this.defaultInterval = interval === 0 && oldDefault > 0 ? oldDefault * SECONDS_PER_DAY : interval;
    this.maxInterval = ctx.conf.getInt('db.fetch.interval.max', 0);
  }

  /** Fetch time now, the default interval, no retries. */
  initializeSchedule(_url: string, datum: CrawlDatum): CrawlDatum {
    datum.fetchTime = Date.now();
    datum.fetchInterval = this.defaultInterval;
    datum.retries = 0;
    return datum;
  }

  setFetchSchedule(_url: string, datum: CrawlDatum, _prevFetchTime: number, _prevModifiedTime: number, _fetchTime: number, _modifiedTime: number, _state: number): CrawlDatum {
    datum.retries = 0;
    return datum;
  }

  /** No page is truly gone: the interval grows by 50% (at most 90% of db.fetch.interval.max). */
  setPageGoneSchedule(_url: string, datum: CrawlDatum, _prevFetchTime: number, _prevModifiedTime: number, fetchTime: number): CrawlDatum {
    if (datum.fetchInterval * 1.5 < this.maxInterval) datum.fetchInterval = datum.fetchInterval * 1.5;
    else datum.fetchInterval = this.maxInterval * 0.9;
    datum.fetchTime = fetchTime + Math.trunc(datum.fetchInterval) * 1000;
    return datum;
  }

  /** Transient error: try again in a day, one more retry counted. */
  setPageRetrySchedule(_url: string, datum: CrawlDatum, _prevFetchTime: number, _prevModifiedTime: number, fetchTime: number): CrawlDatum {
    datum.fetchTime = fetchTime + SECONDS_PER_DAY * 1000;
    datum.retries = datum.retries + 1;
    return datum;
  }

  calculateLastFetchTime(datum: CrawlDatum): number {
    if (datum.status === CrawlStatus.STATUS_DB_UNFETCHED) return 0;
    return datum.fetchTime - Math.trunc(datum.fetchInterval) * 1000;
  }

  /**
   * Due when fetchTime <= curTime. A fetch time further away than db.fetch.interval.max is pulled
   * back to now (and an interval above the max cut to 90% of it), so nothing waits forever.
   */
  shouldFetch(_url: string, datum: CrawlDatum, curTime: number): boolean {
    if (datum.fetchTime - curTime > this.maxInterval * 1000) {
      if (datum.fetchInterval > this.maxInterval) datum.fetchInterval = this.maxInterval * 0.9;
      datum.fetchTime = curTime;
    }
    return datum.fetchTime <= curTime;
  }

  /** Resets the datum so the page is fetched again (now when asap). */
  forceRefetch(_url: string, datum: CrawlDatum, asap: boolean): CrawlDatum {
    if (datum.fetchInterval > this.maxInterval) datum.fetchInterval = this.maxInterval * 0.9;
    datum.status = CrawlStatus.STATUS_DB_UNFETCHED;
    datum.retries = 0;
    datum.signature = null;
    datum.modifiedTime = 0;
    if (asap) datum.fetchTime = Date.now();
    return datum;
  }
}

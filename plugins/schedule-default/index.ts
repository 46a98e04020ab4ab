/**
 * Nutch's DefaultFetchSchedule: the interval never changes; the next fetch is the fetch time plus
 * the interval (the default interval when the datum has none).
 */
import { AbstractFetchSchedule, type CrawlDatum } from '../../sdk/plugin.js';

export class DefaultFetchSchedule extends AbstractFetchSchedule {
  override setFetchSchedule(url: string, datum: CrawlDatum, prevFetchTime: number, prevModifiedTime: number, fetchTime: number, modifiedTime: number, state: number): CrawlDatum {
    super.setFetchSchedule(url, datum, prevFetchTime, prevModifiedTime, fetchTime, modifiedTime, state);
    if (datum.fetchInterval === 0) datum.fetchInterval = this.defaultInterval;
    datum.fetchTime = fetchTime + Math.trunc(datum.fetchInterval) * 1000;
    datum.modifiedTime = modifiedTime;
    return datum;
  }
}

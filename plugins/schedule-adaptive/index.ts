/**
 * Nutch's AdaptiveFetchSchedule: the interval shrinks by dec_rate when the page changed and grows by
 * inc_rate when it did not, clamped to [min_interval, max_interval]; with sync_delta the next fetch
 * is pulled towards the page's last modification. A `fixedInterval` in the datum's metadata
 * (seed metadata nutch.fetchInterval.fixed) pins the interval.
 */
import { AbstractFetchSchedule, DatumMeta, FetchScheduleState, getMeta, type CrawlDatum, type PluginContext } from '../../sdk/plugin.js';

export class AdaptiveFetchSchedule extends AbstractFetchSchedule {
  private readonly incRate: number;
  private readonly decRate: number;
  private readonly minInterval: number;
  private readonly maxAdaptiveInterval: number;
  private readonly syncDelta: boolean;
  private readonly syncDeltaRate: number;

  constructor(ctx: PluginContext) {
    super(ctx);
    const c = ctx.conf;
    this.incRate = c.getFloat('db.fetch.schedule.adaptive.inc_rate', 0.2);
    this.decRate = c.getFloat('db.fetch.schedule.adaptive.dec_rate', 0.2);
    this.minInterval = c.getFloat('db.fetch.schedule.adaptive.min_interval', 60);
    this.maxAdaptiveInterval = c.getFloat('db.fetch.schedule.adaptive.max_interval', 365 * 24 * 3600);
    this.syncDelta = c.getBoolean('db.fetch.schedule.adaptive.sync_delta', true);
    this.syncDeltaRate = c.getFloat('db.fetch.schedule.adaptive.sync_delta_rate', 0.2);
  }

  override setFetchSchedule(url: string, datum: CrawlDatum, prevFetchTime: number, prevModifiedTime: number, fetchTime: number, modifiedTime: number, state: number): CrawlDatum {
    super.setFetchSchedule(url, datum, prevFetchTime, prevModifiedTime, fetchTime, modifiedTime, state);
    let interval = datum.fetchInterval === 0 ? this.defaultInterval : datum.fetchInterval;
    let refTime = fetchTime;
    const fixed = Number(getMeta(datum.metaData, DatumMeta.FIXED_INTERVAL_KEY));
    if (getMeta(datum.metaData, DatumMeta.FIXED_INTERVAL_KEY) !== undefined && Number.isFinite(fixed)) {
      interval = fixed;
    } else {
      if (modifiedTime <= 0) modifiedTime = fetchTime;
      if (state === FetchScheduleState.STATUS_MODIFIED) {
        interval *= 1 - this.decRate;
        modifiedTime = fetchTime;
      } else if (state === FetchScheduleState.STATUS_NOTMODIFIED) {
        interval *= 1 + this.incRate;
      }
      if (this.syncDelta) {
        // try to synchronise with the time of change
        const delta = Math.trunc((fetchTime - modifiedTime) / 1000);
        if (delta > interval) interval = delta;
        refTime = fetchTime - Math.round(delta * this.syncDeltaRate * 1000);
      }
      if (interval < this.minInterval) interval = this.minInterval;
      else if (interval > this.maxAdaptiveInterval) interval = this.maxAdaptiveInterval;
    }
    datum.fetchInterval = interval;
    datum.fetchTime = refTime + Math.round(interval * 1000);
    datum.modifiedTime = modifiedTime;
    return datum;
  }
}

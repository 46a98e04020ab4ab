/**
 * scoring-orphan, as Nutch's OrphanScoringFilter: updatedb stamps `_orphan_` (epoch seconds) on every
 * CrawlDb entry that received an inlink in this update; an entry with a stamp and no inlink is marked
 * db_gone once scoring.orphan.mark.gone.after seconds have passed since the stamp (the index stage then
 * deletes it) and db_orphan after scoring.orphan.mark.orphan.after (db.update.purge.orphans then drops
 * it from the CrawlDb). Entries never linked to (seeds) carry no stamp and are never orphaned.
 */
import { CrawlStatus, type CrawlDatum, type Logger, type PluginContext, type ScoringFilter } from '../../sdk/plugin.js';

export const ORPHAN_KEY = '_orphan_';

export class OrphanScoringFilter implements ScoringFilter {
  private readonly goneAfter: number;
  private readonly orphanAfter: number;
  private readonly log: Logger;
  /** Seconds since the epoch; a parameter so that tests can move time. */
  private readonly now: () => number;

  constructor(ctx: PluginContext, now: () => number = () => Math.floor(Date.now() / 1000)) {
    this.goneAfter = ctx.conf.getInt('scoring.orphan.mark.gone.after', 30 * 24 * 3600);
    this.orphanAfter = ctx.conf.getInt('scoring.orphan.mark.orphan.after', 40 * 24 * 3600);
    this.log = ctx.log;
    this.now = now;
    if (this.goneAfter > this.orphanAfter) {
      ctx.log.warn('scoring-orphan: scoring.orphan.mark.gone.after is larger than scoring.orphan.mark.orphan.after, so pages go straight to db_orphan and are never marked db_gone');
    }
  }

  updateDbScore(url: string, _old: CrawlDatum | null, datum: CrawlDatum, inlinked: CrawlDatum[]): void {
    if (inlinked.length > 0) datum.metaData[ORPHAN_KEY] = [String(this.now())];
    else this.orphanedScore(url, datum);
  }

  orphanedScore(url: string, datum: CrawlDatum): void {
    const raw = datum.metaData[ORPHAN_KEY]?.[0];
    if (raw === undefined) return;
    const lastInlink = Number(raw);
    if (!Number.isFinite(lastInlink)) {
      this.log.warn(`scoring-orphan: ${url.slice(0, 300)} has ${ORPHAN_KEY}=${JSON.stringify(raw)}, not a time; left as it is`);
      return;
    }
    const elapsed = this.now() - lastInlink;
    if (elapsed > this.orphanAfter) datum.status = CrawlStatus.STATUS_DB_ORPHAN;
    else if (elapsed > this.goneAfter) datum.status = CrawlStatus.STATUS_DB_GONE;
  }
}

/**
 * The part of Nutch's inject job that passes the existing CrawlDb through CrawlDbFilter:
 * db.update.purge.404 drops records with status db_gone (urls_purged_404), and -filterNormalizeAll
 * normalises and filters every existing URL (urls_purged_filter). Runs inside the inject session.
 */
import { CrawlStatus, type CrawlDatum } from '../../model/crawl-datum.js';
import type { UrlRewrite } from '../../extension-points/normalize-then-filter.js';
import type { CrawlDbUpdate, Keyed } from '../../storage/interfaces.js';
import { count, type Counters } from '../progress.js';

export interface RewriteOptions {
  purge404: boolean;
  /** -filterNormalizeAll: the inject normalisers and filters; null leaves existing URLs as they are. */
  rewrite: UrlRewrite | null;
  batchSize: number;
  counters: Counters;
}

export async function rewriteExisting(session: CrawlDbUpdate, o: RewriteOptions): Promise<void> {
  let deletes: string[] = [];
  let puts: Keyed<CrawlDatum>[] = [];
  const flush = async () => {
    if (deletes.length) await session.delete(deletes);
    if (puts.length) {
      // a normalised URL that already exists keeps its own record
      const existing = await session.getMany(puts.map((p) => p.url));
      await session.put(puts.filter((p) => !existing.has(p.url)));
    }
    deletes = [];
    puts = [];
  };
  for await (const { url, value } of session.scan({ batchSize: o.batchSize })) {
    if (o.purge404 && value.status === CrawlStatus.STATUS_DB_GONE) {
      count(o.counters, 'urls_purged_404');
      deletes.push(url);
    } else if (o.rewrite) {
      const target = o.rewrite(url);
      if (target === null) {
        count(o.counters, 'urls_purged_filter');
        deletes.push(url);
      } else if (target !== url) {
        deletes.push(url);
        puts.push({ url: target, value });
      }
    }
    if (deletes.length + puts.length >= o.batchSize) await flush();
  }
  await flush();
}

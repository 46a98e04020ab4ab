/**
 * dedup (`nutch dedup <crawldb> [-group none|host|domain] [-compareOrder score,fetchTime,urlLength]`),
 * as Nutch's DeduplicationJob: fetched and not-modified pages sharing a signature (within a host or
 * domain with -group) keep one page, chosen by the compare order; the others become db_duplicate.
 * The CrawlDb entries are staged by signature into an external sort (bounded memory), the
 * duplicates marked through ONE CrawlDbUpdate committed at the end (atomic, re-runnable).
 */
import { NutchError } from '../../errors.js';
import { domainOf, hostOf } from '../../url/url-parts.js';
import { CrawlStatus, type CrawlDatum } from '../../model/crawl-datum.js';
import type { NutchContext } from '../context.js';
import type { CrawlDb, CrawlDbUpdate, Keyed } from '../../storage/interfaces.js';
import type { Counters, StageOptions } from '../progress.js';
import { StageRun } from '../stage-run.js';
import { openExistingCrawlDb } from '../existing-stores.js';
import { ExternalSort } from '../../storage/external-sort.js';
import { yieldToEventLoop } from '../../storage/yield.js';
import { COMPARE_CRITERIA, DEFAULT_COMPARE_ORDER, getDuplicate, type CompareCriterion, type DedupCandidate } from './duplicate-order.js';

export type DedupGroup = 'none' | 'host' | 'domain';

export interface DedupArgs {
  crawlDb: string;
  group?: DedupGroup;
  compareOrder?: string[];
  force?: boolean;
}

export function parseCompareOrder(order: readonly string[] | undefined): CompareCriterion[] {
  if (!order || order.length === 0) return [...DEFAULT_COMPARE_ORDER];
  return order.map((c) => {
    if (!(COMPARE_CRITERIA as readonly string[]).includes(c)) {
      throw new NutchError('NUTCH_USAGE', `dedup -compareOrder: unknown criterion "${c}"; use a comma-separated list of ${COMPARE_CRITERIA.join(', ')}.`);
    }
    return c as CompareCriterion;
  });
}

export async function dedup(ctx: NutchContext, args: DedupArgs, opts: StageOptions = {}): Promise<Counters> {
  const run = new StageRun(ctx, 'dedup', opts, { documents_marked_as_duplicate: 0, documents_compared: 0 });
  const group = args.group ?? 'none';
  if (!['none', 'host', 'domain'].includes(group)) throw new NutchError('NUTCH_USAGE', `dedup -group must be none, host or domain, got "${group}".`);
  const order = parseCompareOrder(args.compareOrder);
  const batchSize = Math.max(1, ctx.conf.getInt('storage.batch.size'));
  run.start({ crawlDb: args.crawlDb, group, compareOrder: order });
  run.log.info(`DeduplicationJob: crawldb: ${args.crawlDb}; group: ${group}; compareOrder: ${order.join(',')}`);

  const db = await openExistingCrawlDb(ctx, args.crawlDb, '; nothing to deduplicate.');
  const staging = new ExternalSort({ columns: 3 });
  try {
    await run.inSession(() => db.beginUpdate({ force: args.force }), async (session) => {
      await stageBySignature(run, db, staging, group, batchSize);
      await markDuplicates(run, session, staging, order, batchSize);
    }, 'DeduplicationJob: stopped; nothing was marked, the CrawlDb is unchanged');
  } finally {
    staging.close();
    await db.close();
  }
  return run.finish((ms) => `Deduplication: ${run.counters.documents_marked_as_duplicate} documents marked as duplicates; finished, elapsed: ${ms} ms`);
}

/** 1. Key every fetched / not-modified page by its signature (+ host or domain). */
async function stageBySignature(run: StageRun, db: CrawlDb, staging: ExternalSort, group: DedupGroup, batchSize: number): Promise<void> {
  let scanned = 0;
  for await (const { url, value } of db.scan({ batchSize })) {
    if (++scanned % batchSize === 0) run.checkAborted();
    if (value.status !== CrawlStatus.STATUS_DB_FETCHED && value.status !== CrawlStatus.STATUS_DB_NOTMODIFIED) continue;
    if (!value.signature) continue;
    const key = groupKey(value.signature, url, group);
    // sorted by group, then URL ('\u0001' sorts below every URL character)
    if (key !== null) staging.add([`${key}\u0001${url}`, key, value.score, value.fetchTime]);
  }
}

/** 2. Walk each signature group; mark the losers (DeduplicationJob's reducer). */
async function markDuplicates(run: StageRun, session: CrawlDbUpdate, staging: ExternalSort, order: CompareCriterion[], batchSize: number): Promise<void> {
  const { counters } = run;
  let duplicates: string[] = [];
  const flush = async () => {
    if (duplicates.length === 0) return;
    const current = await session.getMany(duplicates);
    const out: Keyed<CrawlDatum>[] = [];
    for (const url of duplicates) {
      const d = current.get(url);
      if (d) out.push({ url, value: { ...d, status: CrawlStatus.STATUS_DB_DUPLICATE } });
    }
    await session.put(out);
    duplicates = [];
    run.checkAborted();
    run.progress(counters.documents_marked_as_duplicate!);
  };
  let key: string | null = null;
  let kept: DedupCandidate | null = null;
  let steps = 0;
  for (const [sortKey, k, score, fetchTime] of staging.sorted()) {
    const doc: DedupCandidate = { url: sortKey.slice((k as string).length + 1), score: score as number, fetchTime: fetchTime as number };
    counters.documents_compared!++;
    if (key !== k) {
      key = k as string;
      kept = doc;
      continue;
    }
    const duplicate = getDuplicate(kept!, doc, order);
    if (duplicate) {
      duplicates.push(duplicate.url);
      counters.documents_marked_as_duplicate!++;
      if (duplicate === kept) kept = doc;
    }
    if (duplicates.length >= batchSize) await flush();
    else if (++steps % 5000 === 0) await yieldToEventLoop();
  }
  await flush();
  run.progress(counters.documents_marked_as_duplicate!, counters.documents_marked_as_duplicate!);
}

/** The reduce key: the signature (hex), with the host or the domain appended per -group (null: URL unusable). */
function groupKey(signature: Uint8Array, url: string, group: DedupGroup): string | null {
  const sig = Buffer.from(signature.buffer, signature.byteOffset, signature.byteLength).toString('hex');
  if (group === 'none') return sig;
  // a URL without a host (file:) is its own '' host, as java.net.URL#getHost
  const host = hostOf(url) ?? (URL.canParse(url) ? '' : null);
  if (host === null) return null;
  const suffix = group === 'host' ? host : domainOf(host);
  return `${sig} ${suffix}`;
}


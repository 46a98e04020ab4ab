/**
 * dedup (`nutch dedup <crawldb> [-group none|host|domain] [-compareOrder score,fetchTime,urlLength]`),
 * as Nutch's DeduplicationJob: fetched and not-modified pages sharing a signature (within a host or
 * domain with -group) keep one page, chosen by the compare order; the others become db_duplicate.
 * The CrawlDb entries are staged by signature into an external sort (bounded memory), the
 * duplicates marked through ONE CrawlDbUpdate committed at the end (atomic, re-runnable).
 */
import { getDomain } from 'tldts';
import { NutchError } from '../../errors.js';
import { CrawlStatus, type CrawlDatum } from '../../model/crawl-datum.js';
import type { NutchContext } from '../context.js';
import type { CrawlDbUpdate, Keyed } from '../../storage/interfaces.js';
import { count, type Counters, type ProgressEvent, type StageOptions, isPoliteStop } from '../progress.js';
import { ExternalSort } from '../../storage/external-sort.js';
import { COMPARE_CRITERIA, DEFAULT_COMPARE_ORDER, getDuplicate, type CompareCriterion, type DedupCandidate } from './duplicate-order.js';

export type DedupGroup = 'none' | 'host' | 'domain';

export interface DedupArgs {
  crawlDb: string;
  group?: DedupGroup;
  compareOrder?: string[];
  force?: boolean;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

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
  const started = Date.now();
  const counters: Counters = { documents_marked_as_duplicate: 0, documents_compared: 0 };
  const emit = (e: ProgressEvent) => opts.onProgress?.(e);
  const log = ctx.log.child({ stage: 'dedup' });
  const group = args.group ?? 'none';
  if (!['none', 'host', 'domain'].includes(group)) throw new NutchError('NUTCH_USAGE', `dedup -group must be none, host or domain, got "${group}".`);
  const order = parseCompareOrder(args.compareOrder);
  const batchSize = Math.max(1, ctx.conf.getInt('storage.batch.size'));
  emit({ type: 'stage-start', stage: 'dedup', args: { crawlDb: args.crawlDb, group, compareOrder: order } });
  log.info(`DeduplicationJob: crawldb: ${args.crawlDb}; group: ${group}; compareOrder: ${order.join(',')}`);

  const db = await ctx.storage.openCrawlDb(args.crawlDb);
  if (!(await db.exists())) {
    await db.close();
    throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `CrawlDb ${args.crawlDb} does not exist; nothing to deduplicate.`, { file: args.crawlDb });
  }
  const staging = new ExternalSort({ columns: 3 });
  let session: CrawlDbUpdate | undefined;
  try {
    session = await db.beginUpdate({ force: args.force });
    // 1. Key every fetched / not-modified page by its signature (+ host or domain).
    let scanned = 0;
    for await (const { url, value } of db.scan({ batchSize })) {
      if (++scanned % batchSize === 0) checkAborted(opts.signal);
      if (value.status !== CrawlStatus.STATUS_DB_FETCHED && value.status !== CrawlStatus.STATUS_DB_NOTMODIFIED) continue;
      if (!value.signature) continue;
      const key = groupKey(value.signature, url, group);
      // sorted by group, then URL ('\u0001' sorts below every URL character)
      if (key !== null) staging.add([`${key}\u0001${url}`, key, value.score, value.fetchTime]);
    }

    // 2. Walk each signature group; mark the losers (DeduplicationJob's reducer).
    let duplicates: string[] = [];
    const flush = async () => {
      if (duplicates.length === 0) return;
      const current = await session!.getMany(duplicates);
      const out: Keyed<CrawlDatum>[] = [];
      for (const url of duplicates) {
        const d = current.get(url);
        if (d) out.push({ url, value: { ...d, status: CrawlStatus.STATUS_DB_DUPLICATE } });
      }
      await session!.put(out);
      duplicates = [];
      checkAborted(opts.signal);
      emit({ type: 'progress', stage: 'dedup', done: counters.documents_marked_as_duplicate!, counters: { ...counters } });
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
    emit({ type: 'progress', stage: 'dedup', done: counters.documents_marked_as_duplicate!, total: counters.documents_marked_as_duplicate!, counters: { ...counters } });
    await session.commit();
    session = undefined;
  } catch (err) {
    await session?.abort();
    if (isPoliteStop(err, opts.signal)) {
      count(counters, 'stopped');
      log.warn('DeduplicationJob: stopped; nothing was marked, the CrawlDb is unchanged');
      return finish();
    }
    throw err;
  } finally {
    staging.close();
    await db.close();
  }
  return finish();

  function finish(): Counters {
    const ms = Date.now() - started;
    log.info(`Deduplication: ${counters.documents_marked_as_duplicate} documents marked as duplicates; finished, elapsed: ${ms} ms`);
    emit({ type: 'stage-end', stage: 'dedup', counters, ms });
    return counters;
  }
}

/** The reduce key: the signature (hex), with the host or the domain appended per -group (null: URL unusable). */
function groupKey(signature: Uint8Array, url: string, group: DedupGroup): string | null {
  const sig = Buffer.from(signature.buffer, signature.byteOffset, signature.byteLength).toString('hex');
  if (group === 'none') return sig;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  const suffix = group === 'host' ? host : getDomain(host, { allowPrivateDomains: true }) ?? host;
  return `${sig} ${suffix}`;
}

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) {
    const err = new Error('dedup stopped');
    err.name = 'AbortError';
    throw err;
  }
}

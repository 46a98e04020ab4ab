/**
 * The fetch stage (Nutch's Fetcher): a QueueFeeder fills per-host FetchItemQueues from the
 * crawl_generate partitions this process claims (partition-claims.ts); a dispatcher starts up to
 * `threads` concurrent fetches, each from a queue whose politeness delay has passed; results go to
 * crawl_fetch and content of their partition in batches, fenced by the claim. A partition is finished
 * and completed as soon as its last item is written. Started on several machines at once, the
 * processes share the segment's partitions and each returns when all are done or failed. A killed
 * fetch resumes on the same segment, skipping the URLs crawl_fetch already holds. The first abort is a
 * polite stop: nothing new starts, in-flight fetches finish, what is done is committed, and the
 * claimed partitions are given back.
 */
import { NutchError } from '../../errors.js';
import { checkAgentName, type NutchContext } from '../context.js';
import { ContentMeta, type Content } from '../../model/content.js';
import { CrawlStatus, DatumMeta, statusName, type CrawlDatum } from '../../model/crawl-datum.js';
import type { PartitionClaim, PartitionStatus, Segment } from '../../storage/interfaces.js';
import { count, type Counters, type StageOptions } from '../progress.js';
import { ExtensionPoints } from '../../extension-points/extension-point.js';
import { FetchItemQueues } from './fetch-item-queues.js';
import { QueueFeeder } from './feeder.js';
import { FetchOutput } from './fetch-output.js';
import { processItem, type FetcherThreadDeps } from './fetcher-thread.js';
import { formatProtocolStatus } from './status-mapping.js';
import { FetchMonitor } from './fetch-monitor.js';
import { isStorageWriteFailure, storageWriteFailure } from './storage-write-failure.js';
import { ContentBudget } from '../../protocol/content-budget.js';
import type { FetchItem } from './fetch-item.js';
import { PartitionClaims } from './partition-claims.js';
import { workerId } from '../../storage/partition-claim.js';
import { ProtocolStatusCode, protocolStatus, type ProtocolStatus } from '../../model/protocol-status.js';

/** What the inline parse hook learns about a fetched page (fetcher.parse). */
export interface FetchParseInfo {
  url: string;
  segment: Segment;
  partition: number;
  /** The claim the page was fetched under: parse output of the partition is fenced by it too. */
  claim?: PartitionClaim;
}

export interface FetchArgs {
  /** Path of the segment directory. */
  segment: string;
  /** Concurrent fetches (default fetcher.threads.fetch). */
  threads?: number;
  /**
   * Inline parse (fetcher.parse = true): called for every successfully fetched content; wired by the
   * parse stage to the parse worker pool, which writes the parse output itself.
   */
  parse?: (content: Content, datum: CrawlDatum, info: FetchParseInfo) => Promise<void>;
  /** With `parse`: a partition's fetch ended (complete: finished; else stopped, lost or released). */
  onPartitionEnd?: (segment: Segment, partition: number, complete: boolean) => Promise<void>;
  /** This process's id in partition claims (default host:pid:random). */
  worker?: string;
}

export async function fetch(ctx: NutchContext, args: FetchArgs, opts: StageOptions = {}): Promise<Counters> {
  checkAgentName(ctx.conf);
  const conf = ctx.conf;
  const log = ctx.log.child({ stage: 'fetch' });
  const started = Date.now();
  const counters: Counters = {};
  const segment = await ctx.storage.openSegment(args.segment);
  try {
    if (!(await segment.hasPart('crawl_generate'))) {
      throw new NutchError('NUTCH_SEGMENT_NOT_GENERATED', `Segment ${args.segment} has no crawl_generate; run nutch generate first.`, { path: args.segment });
    }
    if (await segment.isComplete('crawl_fetch')) {
      throw new NutchError('NUTCH_SEGMENT_ALREADY_FETCHED', `Segment already fetched! (${args.segment}/crawl_fetch has _SUCCESS)`, { path: args.segment });
    }
    const threads = Math.max(1, args.threads ?? conf.getInt('fetcher.threads.fetch', 10));
    const totalPartitions = Math.max(1, await segment.partitionCount());
    opts.onProgress?.({ type: 'stage-start', stage: 'fetch', args: { segment: args.segment, threads } });

    // every extension this stage uses starts before anything is read or written (DESIGN §3)
    const [normalizers, filters, scoring] = await Promise.all([
      ctx.extensions.urlNormalizers('fetcher'), ctx.extensions.urlFilters(), ctx.extensions.scoringFilters(),
      ...ctx.plugins.getExtensions(ExtensionPoints.Protocol.id).map((ext) => ctx.plugins.getInstance(ext)),
    ]);
    const protocols = ctx.extensions.protocolFactory();
    const queues = new FetchItemQueues(conf);
    const resumed = (await segment.hasPart('crawl_fetch')) || (await segment.hasPart('content'));
    if (resumed) log.info(`resuming fetch of ${segment.name}: URLs already in crawl_fetch are skipped`);
    const expected = await segment.count('crawl_generate');
    const budget = ContentBudget.fromConf(conf);
    const parseInline = conf.getBoolean('fetcher.parse', false);
    if (parseInline && !args.parse) log.warn('fetcher.parse is true but no parser is wired to this fetch; content is stored unparsed (run nutch parse)');

    // the partitions this process holds: claimed, fed, written, then completed or given back
    const runs = new Map<number, { claim: PartitionClaim; fedAll: boolean }>();
    const claims: PartitionClaims = new PartitionClaims(segment.fetchPartitions(), args.worker ?? workerId(), {
      leaseMs: conf.getInt('fetcher.partition.lease', 60) * 1000,
      maxAttempts: conf.getInt('fetcher.partition.max.attempts', 4),
      pollMs: conf.getInt('fetcher.partition.poll', 1000),
    }, log, (failed) => returnFailedPartition(failed), (claim) => {
      count(counters, 'partition_lost');
      runs.delete(claim.partition);
      count(counters, 'partition_lost_dropped', queues.dropPartition(claim.partition).length);
      void output.drop(claim.partition).then(() => args.onPartitionEnd?.(segment, claim.partition, false)).catch((err) => { failure ??= err; });
    });
    const output = new FetchOutput(segment, totalPartitions, conf.getBoolean('fetcher.store.content', true), Math.max(1, conf.getInt('storage.batch.size', 1000)), {
      onCommitted: (p) => {
        const run = runs.get(p);
        if (run) void claims.renew(run.claim);
      },
      onLeaseLost: (p, err) => {
        const run = runs.get(p);
        return run ? claims.handle(run.claim, err) : false;
      },
    });

    const deps: FetcherThreadDeps = {
      queues, protocols, normalizers, filters, scoring, counters, log,
      maxRedirect: conf.getInt('http.redirect.max', 0),
      maxCrawlDelay: conf.getFloat('fetcher.max.crawl.delay', 30) < 0 ? -1 : conf.getFloat('fetcher.max.crawl.delay', 30) * 1000,
      minCrawlDelay: conf.getFloat('fetcher.min.crawl.delay', 0) * 1000,
      maxUrlLength: conf.getInt('db.max.outlink.length', 4096),
      budget,
      async output(item, url, datum, content, status, fetchStatus) {
        await record(item, url, datum, content, status, fetchStatus);
      },
    };
    let pages = 0;
    const startedAt = new WeakMap<FetchItem, number>();
    const record = async (item: FetchItem, url: string, datum: CrawlDatum, content: Content | null, status: ProtocolStatus | null, fetchStatus: number) => {
      const now = Date.now();
      datum.status = fetchStatus;
      if (fetchStatus !== CrawlStatus.STATUS_LINKED) datum.fetchTime = now;
      if (status) {
        datum.metaData[DatumMeta.PROTO_STATUS_KEY] = [formatProtocolStatus(status)];
        if (status.lastModified > 0) datum.modifiedTime = status.lastModified;
      }
      if (content) {
        const httpCode = content.metadata[ContentMeta.RESPONSE_CODE]?.[0];
        if (httpCode) datum.metaData[DatumMeta.PROTOCOL_STATUS_CODE_KEY] = [httpCode];
        content.metadata[ContentMeta.SEGMENT_NAME] = [segment.name];
        content.metadata[DatumMeta.FETCH_STATUS_KEY] = [String(fetchStatus)];
        content.metadata[ContentMeta.FETCH_TIME] = [String(now)];
        scoring.passScoreBeforeParsing(url, datum, content);
      }
      if (parseInline && args.parse && content && fetchStatus === CrawlStatus.STATUS_FETCH_SUCCESS && runs.has(item.partition)) {
        // parsed before crawl_fetch is written, so what the parse sets on the datum (its signature) is
        // stored with it, as Nutch's FetcherThread.output; the worker pool parses while other fetches run
        try {
          // fenced only when the hook ends partitions with the fetch (else it writes after completion)
          const claim = args.onPartitionEnd ? runs.get(item.partition)?.claim : undefined;
          await args.parse(content, datum, { url, segment, partition: item.partition, claim });
        } catch (err) {
          if (!claims.handle(runs.get(item.partition)?.claim ?? { partition: item.partition, attempt: 0, worker: '' }, err)) {
            count(counters, 'parse_failed');
            log.warn(`inline parse of ${url} failed: ${(err as Error).message}`);
          }
        }
      }
      try {
        await output.write(item.partition, url, datum, content);
      } catch (err) {
        throw storageWriteFailure(err, segment.name, url);
      }
      if (fetchStatus !== CrawlStatus.STATUS_LINKED) {
        pages++;
        opts.onProgress?.({ type: 'page', stage: 'fetch', url, status: statusName(fetchStatus), httpCode: Number(content?.metadata[ContentMeta.RESPONSE_CODE]?.[0]) || undefined, bytes: content?.content.length, ms: now - (startedAt.get(item) ?? now) });
      }
    };

    /** A partition claimed too often without finishing: its unfetched URLs go back to the CrawlDb (retry). */
    const returnFailedPartition = async (failed: PartitionStatus) => {
      const p = failed.partition;
      count(counters, 'partition_failed');
      await output.open(p);
      for await (const batch of unfetchedBatches(segment, p)) {
        for (const r of batch) {
          count(counters, 'partition_failed_urls');
          await record({ partition: p } as FetchItem, r.url, r.value, null, protocolStatus(ProtocolStatusCode.RETRY, `fetch partition failed: ${failed.reason ?? ''}`), CrawlStatus.STATUS_FETCH_RETRY);
        }
      }
      await output.finishPartition(p, true);
      await args.onPartitionEnd?.(segment, p, true);
    };

    const capacity = threads * Math.max(1, conf.getInt('fetcher.queue.depth.multiplier', 50));
    let limited: 'hitByTimeLimit' | 'hitByThrougputThreshold' | null = null;
    const feeder = new QueueFeeder(segment, queues, capacity, threads, log, {
      async next() {
        for (;;) {
          const claim = await claims.next();
          if (!claim) return null;
          // taken over from another worker, or written by a run that stopped: skip what is stored
          const partitionResumed = resumed || claim.attempt > 1
            || (await segment.count('crawl_fetch', claim.partition)) > 0 || (await segment.count('content', claim.partition)) > 0;
          try {
            await output.open(claim.partition, claim);
          } catch (err) {
            if (claims.handle(claim, err)) continue; // superseded while this process was frozen
            throw err;
          }
          runs.set(claim.partition, { claim, fedAll: false });
          return { partition: claim.partition, resumed: partitionResumed };
        }
      },
      fed(partition) {
        const run = runs.get(partition);
        if (run) run.fedAll = true;
        queues.wake();
      },
      isLost: (partition) => claims.isLost(partition),
      contentStored: (partition, url) => output.contentStored(partition, url),
      skip(url, reason) {
        if (limited) {
          count(counters, limited);
          return;
        }
        count(counters, 'skipped');
        opts.onProgress?.({ type: 'skip', stage: 'fetch', url, reason });
      },
      get dropping() {
        return limited !== null;
      },
    });
    let stopping = false;
    const onAbort = () => {
      if (stopping) return;
      stopping = true;
      count(counters, 'stopped_by_abort');
      feeder.stop();
      claims.stop();
      queues.emptyAll();
      queues.wake();
      log.info('fetch stopping politely: no new requests, in-flight fetches finish, claimed partitions are given back');
    };
    const monitor = new FetchMonitor(conf, counters, () => feeder.stats.skippedStored + pages + (counters.skipped ?? 0), expected, queues, started, log, (why) => {
      // as Nutch: the rest of the fetch list is skipped and the segment completes
      limited = why === 'time' ? 'hitByTimeLimit' : 'hitByThrougputThreshold';
      count(counters, limited, queues.emptyAll().length);
      queues.wake();
    }, opts.onProgress);
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });

    let active = 0;
    let failure: unknown = null;
    const feeding = feeder.run().catch((err) => {
      failure ??= err;
      queues.wake();
    });
    const launch = (item: FetchItem) => {
      active++;
      startedAt.set(item, Date.now());
      processItem(deps, item)
        .catch(async (err) => {
          // a failed write stops the stage (what was committed stays); it is never blamed on the protocol
          if (isStorageWriteFailure(err)) throw err;
          let extension: string | undefined;
          try {
            extension = protocols.select(item.url).extensionId;
          } catch {
            // no protocol: the error says so
          }
          log.warn(`fetch of ${item.url} failed: ${(err as Error).message}`, { code: 'NUTCH_EXTENSION_FAILED', point: 'Protocol', extension, url: item.url });
          opts.onProgress?.({ type: 'error', stage: 'fetch', url: item.url, code: 'NUTCH_EXTENSION_FAILED', message: (err as Error).message });
          count(counters, 'exception');
          await record(item, item.url, item.datum, null, { code: 16, args: [String((err as Error).message)], lastModified: 0 }, CrawlStatus.STATUS_FETCH_RETRY);
          return false;
        })
        .then((asap) => queues.finish(item, asap), (err) => {
          failure ??= err;
          queues.finish(item, false);
        })
        .finally(() => {
          active--;
          queues.wake();
        });
    };
    /** Finishes and completes each held partition whose items are all written. */
    const completeFinished = async () => {
      for (const [p, run] of runs) {
        if (!run.fedAll || queues.pendingFor(p) > 0 || claims.isLost(p)) continue;
        runs.delete(p);
        await output.finishPartition(p, true);
        await args.onPartitionEnd?.(segment, p, true);
        if (claims.isLost(p)) continue;
        try {
          await claims.complete(run.claim);
        } catch (err) {
          if (!claims.handle(run.claim, err)) throw err;
        }
      }
    };
    try {
      for (;;) {
        if (failure) throw failure;
        if (!stopping) {
          let item: FetchItem | null;
          while (active < threads && (item = queues.take())) launch(item);
        }
        if (!stopping) await completeFinished();
        if (active === 0 && (stopping || (feeder.done && queues.totalSize === 0 && runs.size === 0))) break;
        const next = active < threads && !stopping ? queues.nextReadyTime() : Infinity;
        await queues.waitForChange(next - Date.now());
      }
      await feeding;
      // a polite stop: what is held goes back, unfinished, for a later run or another worker to resume
      for (const [p, run] of runs) {
        await output.finishPartition(p, false);
        await args.onPartitionEnd?.(segment, p, false);
        await claims.release(run.claim);
      }
      runs.clear();
      if (failure) throw failure;
      monitor.close(true);
    } catch (err) {
      // Nothing more is claimed or fed: a feeder left polling for partitions kept the process alive after a
      // failed write (disk full), and its held claims made a re-run wait for their leases to expire.
      feeder.stop();
      claims.stop();
      queues.emptyAll();
      queues.wake();
      await output.close().catch(() => {});
      for (const [p, run] of runs) {
        await args.onPartitionEnd?.(segment, p, false).catch(() => {});
        await claims.release(run.claim).catch(() => {}); // on a full disk this may fail too; the lease then expires
      }
      throw err;
    } finally {
      monitor.close();
      claims.close();
      opts.signal?.removeEventListener('abort', onAbort);
    }
    if (feeder.stats.skippedStored) counters.resumed_skipped = feeder.stats.skippedStored;
    if (budget.peak) counters.content_budget_peak = budget.peak;
    if (budget.refused) counters.content_budget_refused = budget.refused;
    if (output.droppedRecords) counters.partition_lost_records = output.droppedRecords;
    const ms = Date.now() - started;
    log.info(`fetch of ${segment.name} done in ${(ms / 1000).toFixed(1)} s: ${pages} pages (${(pages / Math.max(0.001, ms / 1000)).toFixed(1)} pages/s)`, counters);
    opts.onProgress?.({ type: 'stage-end', stage: 'fetch', counters, ms });
    return counters;
  } finally {
    await segment.close();
  }
}

/** crawl_generate records of a partition that crawl_fetch does not hold yet, a batch at a time. */
async function* unfetchedBatches(segment: Segment, partition: number, size = 500): AsyncGenerator<{ url: string; value: CrawlDatum }[]> {
  let batch: { url: string; value: CrawlDatum }[] = [];
  const flush = async () => {
    const stored = await segment.storedAmong('crawl_fetch', partition, batch.map((r) => r.url));
    const out = batch.filter((r) => !stored.has(r.url));
    batch = [];
    return out;
  };
  for await (const r of segment.read('crawl_generate', { partition })) {
    batch.push(r);
    if (batch.length >= size) yield await flush();
  }
  if (batch.length) yield await flush();
}

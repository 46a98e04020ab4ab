/**
 * One run of the fetch stage over one segment (Nutch's Fetcher.fetch): the QueueFeeder that fills the
 * per-host queues from the partitions this process holds (fetch-partition-runs.ts), the dispatcher
 * that starts up to `threads` fetches whose politeness delay has passed, and the recording of each
 * result (inline parse, then crawl_fetch and content, fenced by the partition's claim).
 */
import type { NutchContext } from '../context.js';
import type { Configuration } from '../../config/configuration.js';
import type { Logger } from '../../log.js';
import { ContentMeta, type Content } from '../../model/content.js';
import { CrawlStatus, DatumMeta, statusName, type CrawlDatum } from '../../model/crawl-datum.js';
import type { Segment } from '../../storage/interfaces.js';
import type { Counters } from '../progress.js';
import type { StageRun } from '../stage-run.js';
import type { ScoringFilters } from '../../extension-points/scoring-filter.js';
import type { ProtocolFactory } from '../../extension-points/protocol.js';
import { FetchItemQueues } from './fetch-item-queues.js';
import { QueueFeeder } from './feeder.js';
import { processItem, type FetcherThreadDeps } from './fetcher-thread.js';
import { formatProtocolStatus } from './status-mapping.js';
import { FetchMonitor } from './fetch-monitor.js';
import { StorageWriteFailures } from './storage-write-failure.js';
import { ContentBudget } from '../../protocol/content-budget.js';
import type { FetchItem } from './fetch-item.js';
import { FetchPartitionRuns } from './fetch-partition-runs.js';
import { partitionCountOf } from '../segment-parts.js';
import type { ProtocolStatus } from '../../model/protocol-status.js';
import type { FetchArgs } from './fetcher.js';

type Limit = 'hitByTimeLimit' | 'hitByThrougputThreshold';

export class FetchJob {
  readonly queues: FetchItemQueues;
  readonly budget: ContentBudget;
  pages = 0;
  private readonly counters: Counters;
  private readonly log: Logger;
  private readonly conf: Configuration;
  private readonly protocols: ProtocolFactory;
  private readonly parseInline: boolean;
  private readonly writeFailures = new StorageWriteFailures();
  private readonly startedAt = new WeakMap<FetchItem, number>();
  private partitions!: FetchPartitionRuns;
  private feeder!: QueueFeeder;
  private monitor!: FetchMonitor;
  private deps!: FetcherThreadDeps;
  private limited: Limit | null = null;
  private stopping = false;
  private active = 0;
  private failure: unknown = null;

  private constructor(
    ctx: NutchContext,
    private readonly run: StageRun,
    private readonly segment: Segment,
    private readonly args: FetchArgs,
    private readonly threads: number,
    private readonly scoring: ScoringFilters,
    /** crawl_fetch or content already holds records: a resumed fetch skips them. */
    private readonly resumed: boolean,
  ) {
    this.conf = ctx.conf;
    this.log = run.log;
    this.counters = run.counters;
    this.protocols = ctx.extensions.protocolFactory();
    this.queues = new FetchItemQueues(this.conf);
    this.budget = ContentBudget.fromConf(this.conf);
    this.parseInline = this.conf.getBoolean('fetcher.parse', false);
  }

  /** Every extension the stage uses starts before anything is read or written (DESIGN §3). */
  static async create(ctx: NutchContext, run: StageRun, segment: Segment, args: FetchArgs, threads: number): Promise<FetchJob> {
    const [normalizers, filters, scoring] = await Promise.all([
      ctx.extensions.urlNormalizers('fetcher'), ctx.extensions.urlFilters(), ctx.extensions.scoringFilters(), ctx.extensions.startProtocols(),
    ]);
    const resumed = (await segment.hasPart('crawl_fetch')) || (await segment.hasPart('content'));
    if (resumed) run.log.info(`resuming fetch of ${segment.name}: URLs already in crawl_fetch are skipped`);
    const job = new FetchJob(ctx, run, segment, args, threads, scoring, resumed);
    if (job.parseInline && !args.parse) run.log.warn('fetcher.parse is true but no parser is wired to this fetch; content is stored unparsed (run nutch parse)');
    const { conf } = ctx;
    job.deps = {
      queues: job.queues, protocols: job.protocols, normalizers, filters, scoring, counters: run.counters, log: run.log,
      maxRedirect: conf.getInt('http.redirect.max', 0),
      maxCrawlDelay: conf.getFloat('fetcher.max.crawl.delay', 30) < 0 ? -1 : conf.getFloat('fetcher.max.crawl.delay', 30) * 1000,
      minCrawlDelay: conf.getFloat('fetcher.min.crawl.delay', 0) * 1000,
      maxUrlLength: conf.getInt('db.max.outlink.length', 4096),
      budget: job.budget,
      output: (item, url, datum, content, status, fetchStatus) => job.record(item, url, datum, content, status, fetchStatus),
      mayRequest: (item) => job.partitions.mayRequest(item),
    };
    job.partitions = new FetchPartitionRuns({
      segment, conf, run, args, queues: job.queues, totalPartitions: await partitionCountOf(segment), resumed,
      record: (item, url, datum, content, status, fetchStatus) => job.record(item, url, datum, content, status, fetchStatus),
      fail: (err) => { job.failure ??= err; },
    });
    job.feeder = job.queueFeeder();
    job.monitor = new FetchMonitor(conf, run.counters, () => job.feeder.stats.skippedStored + job.pages + (run.counters.skipped ?? 0), await segment.count('crawl_generate'), job.queues, Date.now() - run.elapsed, run.log, (why) => job.hitLimit(why), (e) => run.emit(e));
    return job;
  }

  /** Dispatches until every claimed partition is done (or the stop), then gives back what is held. */
  async fetchAll(): Promise<void> {
    const onAbort = () => this.stop();
    if (this.run.signal?.aborted) onAbort();
    else this.run.signal?.addEventListener('abort', onAbort, { once: true });
    const feeding = this.feeder.run().catch((err) => {
      this.failure ??= err;
      this.queues.wake();
    });
    try {
      await this.dispatch();
      await feeding;
      await this.partitions.releaseHeld();
      if (this.failure) throw this.failure;
      this.monitor.close(true);
    } catch (err) {
      // Nothing more is claimed or fed: a feeder left polling for partitions kept the process alive after a
      // failed write (disk full), and its held claims made a re-run wait for their leases to expire.
      this.feeder.stop();
      this.partitions.claims.stop();
      this.queues.emptyAll();
      this.queues.wake();
      await this.partitions.abandon();
      throw err;
    } finally {
      await this.partitions.close();
      this.monitor.close();
      this.run.signal?.removeEventListener('abort', onAbort);
    }
    this.summarise();
  }

  /** The dispatcher: fetches start while threads are free and queues are ready; finished partitions complete. */
  private async dispatch(): Promise<void> {
    const { queues, threads } = this;
    for (;;) {
      if (this.failure) throw this.failure;
      if (!this.stopping) {
        let item: FetchItem | null;
        while (this.active < threads && (item = queues.take(Date.now(), this.partitions.launchable))) this.launch(item);
      }
      if (!this.stopping) await this.partitions.completeFinished();
      if (this.active === 0 && (this.stopping || (this.feeder.done && queues.totalSize === 0 && this.partitions.held === 0))) break;
      const next = this.active < threads && !this.stopping ? queues.nextReadyTime(this.partitions.launchable) : Infinity;
      await queues.waitForChange(next - Date.now());
    }
  }

  /** The first abort: no new requests, in-flight fetches finish, claimed partitions are given back. */
  private stop(): void {
    if (this.stopping) return;
    this.stopping = true;
    this.run.count('stopped_by_abort');
    this.feeder.stop();
    this.partitions.claims.stop();
    this.queues.emptyAll();
    this.queues.wake();
    this.log.info('fetch stopping politely: no new requests, in-flight fetches finish, claimed partitions are given back');
  }

  /** fetcher.timelimit.mins / throughput threshold, as Nutch: the rest of the fetch list is skipped and the segment completes. */
  private hitLimit(why: 'time' | 'throughput'): void {
    this.limited = why === 'time' ? 'hitByTimeLimit' : 'hitByThrougputThreshold';
    this.run.count(this.limited, this.queues.emptyAll().length);
    this.queues.wake();
  }

  private launch(item: FetchItem): void {
    if (this.partitions.lostHere(item.partition)) {
      // a redirect queued after its partition was lost: its hosts belong to another worker now
      this.run.count('partition_lost_dropped');
      this.queues.finish(item, true);
      return;
    }
    this.active++;
    this.startedAt.set(item, Date.now());
    processItem(this.deps, item)
      .catch((err) => this.protocolFailed(item, err))
      .then((asap) => this.queues.finish(item, asap), (err) => {
        this.failure ??= err;
        this.queues.finish(item, false);
      })
      .finally(() => {
        this.active--;
        this.queues.wake();
      });
  }

  /** A fetch that threw: logged against its Protocol and recorded as a retry; a failed write stops the stage. */
  private async protocolFailed(item: FetchItem, err: unknown): Promise<boolean> {
    // a failed write stops the stage (what was committed stays); it is never blamed on the protocol
    if (this.writeFailures.has(err)) throw err;
    let extension: string | undefined;
    try {
      extension = this.protocols.select(item.url).extensionId;
    } catch {
      // no protocol: the error says so
    }
    this.log.warn(`fetch of ${item.url} failed: ${(err as Error).message}`, { code: 'NUTCH_EXTENSION_FAILED', point: 'Protocol', extension, url: item.url });
    this.run.emit({ type: 'error', stage: 'fetch', url: item.url, code: 'NUTCH_EXTENSION_FAILED', message: (err as Error).message });
    this.run.count('exception');
    await this.record(item, item.url, item.datum, null, { code: 16, args: [String((err as Error).message)], lastModified: 0 }, CrawlStatus.STATUS_FETCH_RETRY);
    return false;
  }

  /** One result: the datum's fetch fields, the inline parse, then crawl_fetch and content (FetcherThread.output). */
  private async record(item: FetchItem, url: string, datum: CrawlDatum, content: Content | null, status: ProtocolStatus | null, fetchStatus: number): Promise<void> {
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
      content.metadata[ContentMeta.SEGMENT_NAME] = [this.segment.name];
      content.metadata[DatumMeta.FETCH_STATUS_KEY] = [String(fetchStatus)];
      content.metadata[ContentMeta.FETCH_TIME] = [String(now)];
      this.scoring.passScoreBeforeParsing(url, datum, content);
    }
    if (this.parseInline && this.args.parse && content && fetchStatus === CrawlStatus.STATUS_FETCH_SUCCESS && this.partitions.holds(item.partition)) {
      await this.parse(item, url, datum, content);
    }
    try {
      await this.partitions.output.write(item.partition, url, datum, content);
    } catch (err) {
      throw this.writeFailures.wrap(err, this.segment.name, url);
    }
    if (fetchStatus !== CrawlStatus.STATUS_LINKED) {
      this.pages++;
      this.run.emit({ type: 'page', stage: 'fetch', url, status: statusName(fetchStatus), httpCode: Number(content?.metadata[ContentMeta.RESPONSE_CODE]?.[0]) || undefined, bytes: content?.content.length, ms: now - (this.startedAt.get(item) ?? now) });
    }
  }

  /**
   * The inline parse, before crawl_fetch is written, so what the parse sets on the datum (its signature)
   * is stored with it, as Nutch's FetcherThread.output; the worker pool parses while other fetches run.
   */
  private async parse(item: FetchItem, url: string, datum: CrawlDatum, content: Content): Promise<void> {
    try {
      // fenced only when the hook ends partitions with the fetch (else it writes after completion)
      const claim = this.args.onPartitionEnd ? this.partitions.claimOf(item.partition) : undefined;
      await this.args.parse!(content, datum, { url, segment: this.segment, partition: item.partition, claim });
    } catch (err) {
      if (!this.partitions.handleLoss(item.partition, err)) {
        this.run.count('parse_failed');
        this.log.warn(`inline parse of ${url} failed: ${(err as Error).message}`);
      }
    }
  }

  private queueFeeder(): QueueFeeder {
    const job = this;
    const capacity = this.threads * Math.max(1, this.conf.getInt('fetcher.queue.depth.multiplier', 50));
    return new QueueFeeder(this.segment, this.queues, capacity, this.threads, this.log, {
      next: () => this.partitions.claimNext(),
      fed: (partition) => {
        this.partitions.fed(partition);
        this.queues.wake();
      },
      isLost: (partition) => this.partitions.isLost(partition),
      contentStored: (partition, url) => this.partitions.output.contentStored(partition, url),
      skip: (url, reason) => {
        if (this.limited) {
          this.run.count(this.limited);
          return;
        }
        this.run.count('skipped');
        this.run.emit({ type: 'skip', stage: 'fetch', url, reason });
      },
      get dropping() {
        return job.limited !== null;
      },
    });
  }

  private summarise(): void {
    const { counters } = this;
    if (this.feeder.stats.skippedStored) counters.resumed_skipped = this.feeder.stats.skippedStored;
    if (this.budget.peak) counters.content_budget_peak = this.budget.peak;
    if (this.budget.refused) counters.content_budget_refused = this.budget.refused;
    if (this.partitions.output.droppedRecords) counters.partition_lost_records = this.partitions.output.droppedRecords;
  }
}

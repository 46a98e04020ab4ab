/**
 * The fetch partitions one fetch process holds, from claim to completion (DESIGN §5.1): the feeder's
 * next partition (claimed, its output opened under the claim), the checks before each launch and each
 * request that the claim is still trusted, a lost partition's queued items and unwritten output
 * dropped, a finished partition completed once its last item is written, what is held given back on a
 * polite stop, and a partition claimed too often returned to the CrawlDb as unfetched. The FetchJob
 * fetches items; this file decides which partitions it may fetch them for.
 */
import { isNutchError } from '../../errors.js';
import type { Configuration } from '../../config/configuration.js';
import type { Content } from '../../model/content.js';
import { CrawlStatus, type CrawlDatum } from '../../model/crawl-datum.js';
import { ProtocolStatusCode, protocolStatus, type ProtocolStatus } from '../../model/protocol-status.js';
import type { PartitionClaim, PartitionStatus, Segment } from '../../storage/interfaces.js';
import { workerId } from '../../storage/partition-claim.js';
import type { StageRun } from '../stage-run.js';
import { FetchOutput } from './fetch-output.js';
import type { FetchItem } from './fetch-item.js';
import type { FetchItemQueues } from './fetch-item-queues.js';
import type { FetchArgs } from './fetcher.js';
import { PartitionClaims } from './partition-claims.js';

/** How the job records one result (the datum's fetch fields, inline parse, crawl_fetch and content). */
export type RecordResult = (item: FetchItem, url: string, datum: CrawlDatum, content: Content | null, status: ProtocolStatus | null, fetchStatus: number) => Promise<void>;

export interface FetchPartitionRunsDeps {
  segment: Segment;
  conf: Configuration;
  run: StageRun;
  args: FetchArgs;
  queues: FetchItemQueues;
  totalPartitions: number;
  /** crawl_fetch or content already held records when the fetch started: every partition is resumed. */
  resumed: boolean;
  record: RecordResult;
  /** A failure that must stop the stage (the database failed while a claim was checked or dropped). */
  fail: (err: unknown) => void;
}

export class FetchPartitionRuns {
  /** Per partition's results: written in batches, fenced by its claim. */
  readonly output: FetchOutput;
  readonly claims: PartitionClaims;
  /** The partitions this process holds: claimed, fed, written, then completed or given back. */
  private readonly runs = new Map<number, { claim: PartitionClaim; fedAll: boolean }>();
  /** Lost partitions' output being dropped: awaited before the fetch returns (and closes the segment). */
  private readonly drops = new Set<Promise<void>>();

  constructor(private readonly deps: FetchPartitionRunsDeps) {
    const { conf } = deps;
    this.claims = new PartitionClaims(deps.segment.fetchPartitions(), deps.args.worker ?? workerId(), {
      leaseMs: conf.getInt('fetcher.partition.lease', 60) * 1000,
      maxAttempts: conf.getInt('fetcher.partition.max.attempts', 4),
      pollMs: conf.getInt('fetcher.partition.poll', 1000),
    }, deps.run.log, (failed) => this.returnFailed(failed), (claim) => this.lost(claim), (err) => {
      // a renewal asked because the local lease ran out: the dispatcher looks again (or stops on a database failure)
      if (err !== undefined) deps.fail(err);
      deps.queues.wake();
    });
    this.output = new FetchOutput(deps.segment, deps.totalPartitions, conf.getBoolean('fetcher.store.content', true), Math.max(1, conf.getInt('storage.batch.size', 1000)), {
      onCommitted: (p) => {
        const held = this.runs.get(p);
        if (held) void this.claims.renew(held.claim);
      },
      beforeCommit: async (p) => {
        const held = this.runs.get(p);
        return held ? this.claims.stillHeld(held.claim) : true;
      },
      onLeaseLost: (p, err) => {
        const held = this.runs.get(p);
        if (held) return this.claims.handle(held.claim, err);
        // the renewal timer found the loss first (the run is gone): a write still in flight is refused as expected
        return this.claims.isLost(p) && isNutchError(err, 'NUTCH_LEASE_LOST');
      },
    });
  }

  /** How many partitions this process holds now. */
  get held(): number {
    return this.runs.size;
  }

  holds(partition: number): boolean {
    return this.runs.has(partition);
  }

  /** The claim the partition is held under (undefined when not held). */
  claimOf(partition: number): PartitionClaim | undefined {
    return this.runs.get(partition)?.claim;
  }

  /** Not held because another worker took it over: its late items (a redirect) belong to that worker. */
  lostHere(partition: number): boolean {
    return !this.runs.has(partition) && this.claims.isLost(partition);
  }

  isLost(partition: number): boolean {
    return this.claims.isLost(partition);
  }

  /** A failure of a partition's work that says its claim was superseded: handled as a loss (true), else false. */
  handleLoss(partition: number, err: unknown): boolean {
    return this.claims.handle(this.claimOf(partition) ?? { partition, attempt: 0, worker: '' }, err);
  }

  /** No fetch of a held partition starts while its lease is in doubt by this process's clock (PartitionClaims). */
  readonly launchable = (partition: number): boolean => this.claims.launchable(this.claimOf(partition));

  /** Right before a request: the item's partition is still held (confirmed with the database if its local lease ran out). */
  async mayRequest(item: FetchItem): Promise<boolean> {
    const held = this.runs.get(item.partition);
    if (!held) {
      if (!this.claims.isLost(item.partition)) return true;
    } else {
      try {
        if (await this.claims.stillHeld(held.claim)) return true;
      } catch (err) {
        this.deps.fail(err); // the database failed: the stage stops with its error
      }
    }
    this.deps.run.count('partition_lost_dropped');
    return false;
  }

  /** The feeder's next partition: claimed, its output opened under the claim. */
  async claimNext(): Promise<{ partition: number; resumed: boolean } | null> {
    const { segment } = this.deps;
    for (;;) {
      const claim = await this.claims.next();
      if (!claim) return null;
      // taken over from another worker, or written by a run that stopped: skip what is stored
      const partitionResumed = this.deps.resumed || claim.attempt > 1
        || (await segment.count('crawl_fetch', claim.partition)) > 0 || (await segment.count('content', claim.partition)) > 0;
      try {
        await this.output.open(claim.partition, claim);
      } catch (err) {
        if (this.claims.handle(claim, err)) continue; // superseded while this process was frozen
        throw err;
      }
      if (this.claims.isLost(claim.partition)) {
        // lost while its writers opened (frozen right after the claim): lost() found no run to drop
        await this.output.drop(claim.partition);
        continue;
      }
      this.runs.set(claim.partition, { claim, fedAll: false });
      return { partition: claim.partition, resumed: partitionResumed };
    }
  }

  /** The feeder queued every item of the partition. */
  fed(partition: number): void {
    const held = this.runs.get(partition);
    if (held) held.fedAll = true;
  }

  /** Finishes and completes each held partition whose items are all written. */
  async completeFinished(): Promise<void> {
    const { args, segment, queues } = this.deps;
    for (const [p, held] of this.runs) {
      if (this.claims.isLost(p)) {
        // a loss lost() could not see (never expected): the run must not keep the fetch from ending
        this.runs.delete(p);
        await this.output.drop(p);
        continue;
      }
      if (!held.fedAll || queues.pendingFor(p) > 0) continue;
      // the run stays known while its writers finish: a finish refused as superseded is then handled as a lost lease
      try {
        await this.output.finishPartition(p, true);
      } finally {
        this.runs.delete(p);
      }
      if (this.claims.isLost(p)) continue;
      await args.onPartitionEnd?.(segment, p, true);
      if (this.claims.isLost(p)) continue;
      try {
        await this.claims.complete(held.claim);
      } catch (err) {
        if (!this.claims.handle(held.claim, err)) throw err;
      }
    }
  }

  /** A polite stop: what is held goes back, unfinished, for a later run or another worker to resume. */
  async releaseHeld(): Promise<void> {
    const { args, segment } = this.deps;
    for (const [p, held] of this.runs) {
      await this.output.finishPartition(p, false);
      await args.onPartitionEnd?.(segment, p, false);
      await this.claims.release(held.claim);
    }
    this.runs.clear();
  }

  /**
   * The fetch failed: what was written is closed unfinished and each held partition given back (on a
   * full disk that may fail too; the lease then expires). Never throws.
   */
  async abandon(): Promise<void> {
    const { args, segment } = this.deps;
    await this.output.close().catch(() => {});
    for (const [p, held] of this.runs) {
      await args.onPartitionEnd?.(segment, p, false).catch(() => {});
      await this.claims.release(held.claim).catch(() => {});
    }
  }

  /** The fetch is over: lost partitions' drops have ended and no renewal timer is left. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.drops]);
    this.claims.close();
  }

  /** Another worker superseded this claim: the partition's queued items and unwritten output are dropped. */
  private lost(claim: PartitionClaim): void {
    const { run, queues, args, segment } = this.deps;
    run.count('partition_lost');
    this.runs.delete(claim.partition);
    run.count('partition_lost_dropped', queues.dropPartition(claim.partition).length);
    const drop: Promise<void> = this.output.drop(claim.partition)
      .then(() => args.onPartitionEnd?.(segment, claim.partition, false))
      .catch((err) => this.deps.fail(err))
      .finally(() => this.drops.delete(drop));
    this.drops.add(drop);
  }

  /** A partition claimed too often without finishing: its unfetched URLs go back to the CrawlDb (retry). */
  private async returnFailed(failed: PartitionStatus): Promise<void> {
    const { run, segment, args, record } = this.deps;
    const p = failed.partition;
    run.count('partition_failed');
    await this.output.open(p);
    for await (const batch of unfetchedBatches(segment, p)) {
      for (const r of batch) {
        run.count('partition_failed_urls');
        await record({ partition: p } as FetchItem, r.url, r.value, null, protocolStatus(ProtocolStatusCode.RETRY, `fetch partition failed: ${failed.reason ?? ''}`), CrawlStatus.STATUS_FETCH_RETRY);
      }
    }
    await this.output.finishPartition(p, true);
    await args.onPartitionEnd?.(segment, p, true);
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

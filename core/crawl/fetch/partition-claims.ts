/**
 * The fetch partitions this worker holds (DESIGN §5.1). A partition — whole hosts, as generate made
 * them — is the unit of work and of politeness: the worker claims one with a lease, renews it while
 * it fetches (a timer at a third of the lease, so a frozen or killed worker loses it), completes it
 * once its last item is written, and gives it back on a polite stop. Another worker that finds a
 * lease expired claims the partition and resumes it; one claimed fetcher.partition.max.attempts
 * times is handed back here as failed, for the fetcher to return its URLs to the CrawlDb.
 */
import type { FetchPartitions, PartitionClaim, PartitionStatus } from '../../storage/interfaces.js';
import { isNutchError } from '../../errors.js';
import type { Logger } from '../../log.js';

export interface ClaimOptions {
  leaseMs: number;
  maxAttempts: number;
  pollMs: number;
}

export class PartitionClaims {
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private readonly lost = new Set<number>();
  private stopped = false;
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly queue: FetchPartitions,
    readonly worker: string,
    private readonly opts: ClaimOptions,
    private readonly log: Logger,
    /** A partition found failed: the fetcher returns its unfetched URLs to the CrawlDb. */
    private readonly onFailed: (status: PartitionStatus) => Promise<void>,
    /** This worker's claim was superseded: the fetcher drops the partition's queued items. */
    private readonly onLost: (claim: PartitionClaim) => void,
  ) {}

  /**
   * The next partition for this worker. While other workers hold the rest, waits (fetcher.partition.poll)
   * for one to finish or expire; null once every partition is done or failed, or after stop().
   */
  async next(): Promise<PartitionClaim | null> {
    while (!this.stopped) {
      const { claim, failed } = await this.queue.claim(this.worker, { leaseMs: this.opts.leaseMs, maxAttempts: this.opts.maxAttempts });
      for (const f of failed) {
        this.log.warn(`fetch partition ${f.partition} failed: ${f.reason}; its unfetched URLs return to the CrawlDb as unfetched`, { partition: f.partition });
        await this.onFailed(f);
      }
      if (claim) {
        if (claim.attempt > 1) this.log.info(`partition ${claim.partition} claimed again (attempt ${claim.attempt}): resuming after its last committed batch`);
        this.startRenewal(claim);
        return claim;
      }
      if (await this.queue.allSettled()) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.opts.pollMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
    return null;
  }

  isLost(partition: number): boolean {
    return this.lost.has(partition);
  }

  /** Renews now (after a committed batch); a superseded claim is marked lost, not thrown. */
  async renew(claim: PartitionClaim): Promise<void> {
    if (this.lost.has(claim.partition) || !this.timers.has(claim.partition)) return;
    try {
      await this.queue.renew(claim, this.opts.leaseMs);
    } catch (err) {
      this.handle(claim, err);
    }
  }

  async complete(claim: PartitionClaim): Promise<void> {
    this.stopRenewal(claim);
    await this.queue.complete(claim);
    this.wake();
  }

  /** A polite stop: the partition goes back to pending, for this or another worker to resume. */
  async release(claim: PartitionClaim): Promise<void> {
    this.stopRenewal(claim);
    if (this.lost.has(claim.partition)) return;
    try {
      await this.queue.release(claim);
    } catch (err) {
      this.handle(claim, err);
    }
  }

  /** No more claims; a waiting next() returns null. */
  stop(): void {
    this.stopped = true;
    this.wakeUp?.();
  }

  /** Something changed (this worker completed a partition): a waiting next() asks again now. */
  wake(): void {
    this.wakeUp?.();
  }

  /** Stops every renewal timer (the fetch is over). */
  close(): void {
    for (const t of this.timers.values()) clearInterval(t);
    this.timers.clear();
  }

  /** Marks a claim lost when `err` says so (true), else false. */
  handle(claim: PartitionClaim, err: unknown): boolean {
    if (!isNutchError(err, 'NUTCH_LEASE_LOST')) return false;
    if (!this.lost.has(claim.partition)) {
      this.lost.add(claim.partition);
      this.stopRenewal(claim);
      this.log.warn(`lost partition ${claim.partition} (attempt ${claim.attempt}) to another worker: its lease expired; this worker stops it`, { partition: claim.partition, code: 'NUTCH_LEASE_LOST' });
      this.onLost(claim);
    }
    return true;
  }

  private startRenewal(claim: PartitionClaim): void {
    const timer = setInterval(() => void this.renew(claim), Math.max(10, Math.floor(this.opts.leaseMs / 3)));
    timer.unref();
    this.timers.set(claim.partition, timer);
  }

  private stopRenewal(claim: PartitionClaim): void {
    const t = this.timers.get(claim.partition);
    if (t) clearInterval(t);
    this.timers.delete(claim.partition);
  }
}

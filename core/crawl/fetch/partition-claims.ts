/**
 * The fetch partitions this worker holds (DESIGN §5.1). A partition — whole hosts, as generate made
 * them — is the unit of work and of politeness: the worker claims one with a lease, renews it while
 * it fetches (a timer at a third of the lease, so a frozen or killed worker loses it), completes it
 * once its last item is written, and gives it back on a polite stop. Another worker that finds a
 * lease expired claims the partition and resumes it; one claimed fetcher.partition.max.attempts
 * times is handed back here as failed, for the fetcher to return its URLs to the CrawlDb.
 *
 * A lease that ran out while nobody else claimed the partition (a renewal late on a starved machine) is
 * not lost: the renewal extends the same attempt, and this worker never claims a partition it holds.
 *
 * The database's clock decides who holds a partition; this process's monotonic clock only decides
 * when to stop trusting its own claim. A claim granted (or renewed) for L ms by a request sent at T
 * is taken as held until T + L − margin; past that — the process was frozen (SIGSTOP, a long GC
 * pause) or starved — no fetch of the partition starts and no batch of it commits until the
 * database confirmed the claim again (a renewal), so a worker that wakes after losing its partition
 * never requests a URL of hosts it no longer owns.
 */
import { performance } from 'node:perf_hooks';
import type { FetchPartitions, PartitionClaim, PartitionStatus } from '../../storage/interfaces.js';
import { isNutchError } from '../../errors.js';
import type { Logger } from '../../log.js';

export interface ClaimOptions {
  leaseMs: number;
  maxAttempts: number;
  pollMs: number;
}

/** How long before its local end a lease stops being trusted: a tenth of it, at most 5 s. */
export function leaseMargin(leaseMs: number): number {
  return Math.min(5000, leaseMs / 10);
}

export class PartitionClaims {
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private readonly lost = new Set<number>();
  /** Per held partition: until when (performance.now()) this process trusts its lease. */
  private readonly trustedUntil = new Map<number, number>();
  /** Per partition: the renewal asked because the local lease ran out (one at a time). */
  private readonly confirming = new Map<number, Promise<boolean>>();
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
    /** A confirmation ended (the claim trusted again, lost, or the database failed): the dispatcher looks again. */
    private readonly onConfirmed: (err?: unknown) => void = () => {},
  ) {}

  /**
   * The next partition for this worker. While other workers hold the rest, waits (fetcher.partition.poll)
   * for one to finish or expire; null once every partition is done or failed, or after stop().
   */
  async next(): Promise<PartitionClaim | null> {
    while (!this.stopped) {
      const asked = performance.now();
      // never a partition this worker holds, even one whose lease ran out before its renewal came: taking it
      // would supersede this worker's own claim (its writes refused, its queued items dropped) and use an attempt
      const held = [...this.timers.keys()];
      const { claim, failed } = await this.queue.claim(this.worker, { leaseMs: this.opts.leaseMs, maxAttempts: this.opts.maxAttempts, held });
      for (const f of failed) {
        this.log.warn(`fetch partition ${f.partition} failed: ${f.reason}; its unfetched URLs return to the CrawlDb as unfetched`, { partition: f.partition });
        await this.onFailed(f);
      }
      if (claim) {
        if (claim.attempt > 1) this.log.info(`partition ${claim.partition} claimed again (attempt ${claim.attempt}): resuming after its last committed batch`);
        this.lost.delete(claim.partition);
        this.trust(claim.partition, asked);
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

  /** Renews now (after a committed batch, on the timer); a superseded claim is marked lost, not thrown. */
  async renew(claim: PartitionClaim): Promise<void> {
    try {
      await this.renewOrThrow(claim);
    } catch (err) {
      this.handle(claim, err);
    }
  }

  private async renewOrThrow(claim: PartitionClaim): Promise<void> {
    if (this.lost.has(claim.partition) || !this.timers.has(claim.partition)) return;
    const sent = performance.now();
    await this.queue.renew(claim, this.opts.leaseMs);
    if (this.timers.has(claim.partition) && !this.lost.has(claim.partition)) this.trust(claim.partition, sent);
  }

  /**
   * True while this process may start fetches of the partition: its lease has not run out by the local
   * monotonic clock. When it has, false, and a renewal is asked once; onConfirmed() reports its end.
   * Partitions this worker does not hold (no lease to doubt) are always launchable.
   */
  launchable(claim: PartitionClaim | undefined): boolean {
    if (!claim || this.lost.has(claim.partition)) return claim === undefined;
    const until = this.trustedUntil.get(claim.partition);
    if (until === undefined || performance.now() <= until) return true;
    void this.confirm(claim).then(() => this.onConfirmed(), (err) => this.onConfirmed(err));
    return false;
  }

  /**
   * Before a batch of the partition commits: true when the claim is trusted, after asking the database
   * if the local lease ran out; false when it was lost. Other database failures are thrown.
   */
  async stillHeld(claim: PartitionClaim): Promise<boolean> {
    if (this.lost.has(claim.partition)) return false;
    const until = this.trustedUntil.get(claim.partition);
    if (until === undefined || performance.now() <= until) return true;
    return this.confirm(claim);
  }

  /** Renews a claim whose local lease ran out: true when the database still grants it. */
  private confirm(claim: PartitionClaim): Promise<boolean> {
    let pending = this.confirming.get(claim.partition);
    if (pending) return pending;
    const late = performance.now() - (this.trustedUntil.get(claim.partition) ?? performance.now());
    this.log.info(`lease of partition ${claim.partition} (attempt ${claim.attempt}) ran out by this process's clock (${(late / 1000).toFixed(1)} s past; frozen or starved): no fetch of it starts until the database confirms the claim`, { partition: claim.partition });
    pending = this.renewOrThrow(claim)
      .then(() => !this.lost.has(claim.partition))
      .catch((err) => {
        if (this.handle(claim, err)) return false;
        throw err;
      })
      .finally(() => this.confirming.delete(claim.partition));
    this.confirming.set(claim.partition, pending);
    return pending;
  }

  private trust(partition: number, from: number): void {
    this.trustedUntil.set(partition, from + this.opts.leaseMs - leaseMargin(this.opts.leaseMs));
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
    this.trustedUntil.delete(claim.partition);
  }
}

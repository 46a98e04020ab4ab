/**
 * FetchItemQueues: every queue by id (Nutch's FetchItemQueues), with the totals the feeder and the
 * fetcher threads need and a wake-up signal, so idle threads sleep on a timer until the next queue
 * is due or something changes — never a busy loop.
 */
import type { Configuration } from '../../config/configuration.js';
import { FetchItemQueue } from './fetch-item-queue.js';
import { parseQueueMode, type FetchItem, type QueueMode } from './fetch-item.js';

export class FetchItemQueues {
  readonly queues = new Map<string, FetchItemQueue>();
  readonly mode: QueueMode;
  readonly maxThreadsPerQueue: number;
  readonly crawlDelay: number;
  readonly minCrawlDelay: number;
  readonly maxExceptionsPerQueue: number;
  readonly exceptionsDelay: number;
  /** byIP: host -> address, resolved once per fetch (never shared between crawlers). */
  readonly ipCache = new Map<string, Promise<string>>();
  totalSize = 0;
  inProgress = 0;
  /** Items queued or in progress per fetch partition: a claimed partition is done when it drops to 0. */
  private readonly pendingByPartition = new Map<number, number>();
  private changeWaiter: (() => void) | null = null;
  /** A wake() that came while the dispatcher was not waiting (it was completing partitions): its next wait returns at once. */
  private changePending = false;
  private spaceWaiter: (() => void) | null = null;
  private cursor = 0;
  private order: FetchItemQueue[] = [];

  constructor(conf: Configuration) {
    this.mode = parseQueueMode(conf.getString('fetcher.queue.mode', 'byHost'));
    this.maxThreadsPerQueue = Math.max(1, conf.getInt('fetcher.threads.per.queue', 1));
    this.crawlDelay = Math.round(conf.getFloat('fetcher.server.delay', 5) * 1000);
    this.minCrawlDelay = Math.round(conf.getFloat('fetcher.server.min.delay', 0) * 1000);
    this.maxExceptionsPerQueue = conf.getInt('fetcher.max.exceptions.per.queue', -1);
    this.exceptionsDelay = Math.round(conf.getFloat('fetcher.exceptions.per.queue.delay', 0) * 1000);
  }

  get(id: string): FetchItemQueue {
    let q = this.queues.get(id);
    if (!q) {
      q = new FetchItemQueue(id, this.maxThreadsPerQueue, this.crawlDelay, this.minCrawlDelay);
      this.queues.set(id, q);
      this.order.push(q);
    }
    return q;
  }

  add(item: FetchItem, front = false): void {
    this.get(item.queueId).add(item, front);
    this.totalSize++;
    this.countPending(item.partition, 1);
    this.wake();
  }

  /** Queues with items waiting or in progress: how many hosts this fetch can work on at once. */
  busyQueueCount(): number {
    let n = 0;
    for (const q of this.queues.values()) if (q.size > 0 || q.inProgress.size > 0) n++;
    return n;
  }

  /** Items of a partition queued or in progress. */
  pendingFor(partition: number): number {
    return this.pendingByPartition.get(partition) ?? 0;
  }

  private countPending(partition: number, delta: number): void {
    const n = (this.pendingByPartition.get(partition) ?? 0) + delta;
    if (n > 0) this.pendingByPartition.set(partition, n);
    else this.pendingByPartition.delete(partition);
  }

  /** Drops the queued items of one partition (its claim was lost); in-progress ones finish. */
  dropPartition(partition: number): FetchItem[] {
    const dropped: FetchItem[] = [];
    for (const q of this.queues.values()) dropped.push(...q.removeWhere((i) => i.partition === partition));
    this.totalSize -= dropped.length;
    this.countPending(partition, -dropped.length);
    this.wake();
    return dropped;
  }

  /**
   * The next due item, round-robin over the queues so no host starves. `launchable` vetoes a queue
   * whose next item belongs to a partition this worker may not fetch right now (its lease is in doubt).
   */
  take(now = Date.now(), launchable?: (partition: number) => boolean): FetchItem | null {
    const n = this.order.length;
    for (let i = 0; i < n; i++) {
      const q = this.order[(this.cursor + i) % n]!;
      if (launchable && q.readyAt() <= now && !launchable(q.peek()!.partition)) continue;
      const item = q.take(now);
      if (item) {
        this.cursor = (this.cursor + i + 1) % n;
        this.totalSize--;
        this.inProgress++;
        const s = this.spaceWaiter;
        this.spaceWaiter = null;
        s?.();
        return item;
      }
    }
    return null;
  }

  /** Earliest time any queue can hand out an item (queues `launchable` vetoes wait for a wake()). */
  nextReadyTime(launchable?: (partition: number) => boolean): number {
    let t = Infinity;
    for (const q of this.order) {
      const r = q.readyAt();
      if (r < t && !(launchable && !launchable(q.peek()!.partition))) t = r;
    }
    return t;
  }

  finish(item: FetchItem, asap = false, now = Date.now()): void {
    this.get(item.queueId).finish(item, asap, now);
    this.inProgress--;
    this.countPending(item.partition, -1);
    this.wake();
    this.prune(item.queueId);
  }

  /**
   * Counts an exception for the item's queue (Nutch's checkExceptionThreshold): past
   * fetcher.max.exceptions.per.queue the queue is emptied (the dropped items are returned);
   * with fetcher.exceptions.per.queue.delay the queue backs off delay × 2^(n-1).
   */
  recordException(queueId: string, now = Date.now()): FetchItem[] {
    const q = this.get(queueId);
    q.exceptions++;
    if (this.maxExceptionsPerQueue >= 0 && q.exceptions >= this.maxExceptionsPerQueue) return this.emptyQueue(queueId);
    if (this.exceptionsDelay > 0) q.pauseUntil(now + this.exceptionsDelay * 2 ** Math.min(20, q.exceptions - 1));
    return [];
  }

  emptyQueue(queueId: string): FetchItem[] {
    const q = this.queues.get(queueId);
    if (!q) return [];
    const dropped = q.empty();
    this.totalSize -= dropped.length;
    for (const item of dropped) this.countPending(item.partition, -1);
    this.wake();
    return dropped;
  }

  emptyAll(): FetchItem[] {
    const out: FetchItem[] = [];
    for (const id of this.queues.keys()) out.push(...this.emptyQueue(id));
    return out;
  }

  /** Forgets an idle, empty queue whose delay has passed, so memory follows the active hosts. */
  private prune(id: string): void {
    const q = this.queues.get(id);
    if (q && q.size === 0 && q.inProgress.size === 0 && q.nextFetchTime <= Date.now() && q.exceptions === 0 && !q.robotsDelaySet) {
      this.queues.delete(id);
      this.order = this.order.filter((x) => x !== q);
      this.cursor = 0;
    }
  }

  get queueCount(): number {
    return this.queues.size;
  }

  /** Resolves on the next change (item added or finished, wake()) or after `ms` (the dispatcher). */
  waitForChange(ms: number): Promise<void> {
    // a change between the dispatcher's last look and this wait (the feeder's fed() while the dispatcher
    // awaited a partition's completion) must not be lost: with no fetch in flight nothing else would wake it,
    // and the feeder waits for that partition's completion — the fetch would wait forever, idle
    if (this.changePending) {
      this.changePending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(() => this.wake(), Math.max(1, Math.ceil(ms))) : null;
      this.changeWaiter = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Resolves when items leave the queues (the feeder waits here while they are full). */
  waitForSpace(): Promise<void> {
    return new Promise((resolve) => {
      this.spaceWaiter = resolve;
    });
  }

  wake(): void {
    const w = this.changeWaiter;
    this.changeWaiter = null;
    if (w) w();
    else this.changePending = true;
    const s = this.spaceWaiter;
    this.spaceWaiter = null;
    s?.();
  }
}

/**
 * FetchItemQueue: the URLs of one host (domain, IP) and its politeness state, as Nutch's: at most
 * `maxThreads` in progress; after each fetch the next may start `crawlDelay` later (or `minCrawlDelay`
 * when several threads share the queue); exceptions counted for the per-queue threshold and backoff.
 */
import type { FetchItem } from './fetch-item.js';

export class FetchItemQueue {
  private readonly items: FetchItem[] = [];
  private head = 0;
  readonly inProgress = new Set<FetchItem>();
  /** Earliest time (ms) the next item may start. */
  nextFetchTime = 0;
  exceptions = 0;
  /** True once robots.txt of this queue was consulted for its crawl-delay. */
  robotsDelaySet = false;

  constructor(
    readonly id: string,
    readonly maxThreads: number,
    /** ms between the end of one fetch and the start of the next. */
    public crawlDelay: number,
    readonly minCrawlDelay: number,
  ) {}

  get size(): number {
    return this.items.length - this.head;
  }

  add(item: FetchItem, front = false): void {
    if (front) {
      if (this.head > 0) this.items[--this.head] = item;
      else this.items.unshift(item);
    } else this.items.push(item);
  }

  /** The next item when a thread slot is free and the delay has passed, else null. */
  take(now: number): FetchItem | null {
    if (this.size === 0 || this.inProgress.size >= this.maxThreads || now < this.nextFetchTime) return null;
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined as never;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
    this.inProgress.add(item);
    return item;
  }

  /** When this queue could hand out an item (Infinity when empty or all threads busy). */
  readyAt(): number {
    if (this.size === 0 || this.inProgress.size >= this.maxThreads) return Infinity;
    return this.nextFetchTime;
  }

  /** Ends an item: the next may start after the delay, or at once when `asap` (nothing was requested). */
  finish(item: FetchItem, asap: boolean, now: number): void {
    this.inProgress.delete(item);
    if (!asap) this.nextFetchTime = Math.max(this.nextFetchTime, now + (this.maxThreads > 1 ? this.minCrawlDelay : this.crawlDelay));
  }

  /** Pushes the next start to at least `until` (Retry-After, exception backoff). */
  pauseUntil(until: number): void {
    this.nextFetchTime = Math.max(this.nextFetchTime, until);
  }

  /** Drops the queued items that match (a partition whose claim was lost); returns them. */
  removeWhere(match: (item: FetchItem) => boolean): FetchItem[] {
    const kept: FetchItem[] = [];
    const dropped: FetchItem[] = [];
    for (let i = this.head; i < this.items.length; i++) (match(this.items[i]!) ? dropped : kept).push(this.items[i]!);
    this.items.length = 0;
    this.items.push(...kept);
    this.head = 0;
    return dropped;
  }

  /** Drops every queued item (not the in-progress ones); returns them. */
  empty(): FetchItem[] {
    const dropped = this.items.slice(this.head);
    this.items.length = 0;
    this.head = 0;
    return dropped;
  }
}

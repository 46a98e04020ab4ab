/**
 * FetchItemQueue: the URLs of one host (domain, IP) and its politeness state, as Nutch's: at most
 * `maxThreads` in progress; after each fetch the next may start `crawlDelay` later (or `minCrawlDelay`
 * when several threads share the queue); exceptions counted for the per-queue threshold and backoff.
 */
import type { FetchItem } from './fetch-item.js';
import { DatumMeta } from '../../model/crawl-datum.js';

export class FetchItemQueue {
  private readonly items: FetchItem[] = [];
  private head = 0;
  readonly inProgress = new Set<FetchItem>();
  /** Earliest time (ms) the next item may start. */
  nextFetchTime = 0;
  exceptions = 0;
  /** True once robots.txt of this queue was consulted for its crawl-delay. */
  robotsDelaySet = false;
  /** True once an item carried generate -hostdb's _variableFetchDelay_. */
  private variableDelaySet = false;

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
    // as Nutch's FetchItemQueue: the first item carrying generate's per-host delay sets the queue's
    if (!this.variableDelaySet) {
      const delay = Number(item.datum.metaData[DatumMeta.VARIABLE_FETCH_DELAY_KEY]?.[0]);
      if (Number.isFinite(delay) && delay >= 0 && item.datum.metaData[DatumMeta.VARIABLE_FETCH_DELAY_KEY]) {
        this.crawlDelay = delay;
        this.variableDelaySet = true;
      }
    }
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

  /** The item take() would hand out next, left in place. */
  peek(): FetchItem | null {
    return this.size === 0 ? null : this.items[this.head]!;
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

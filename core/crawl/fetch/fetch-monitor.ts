/**
 * Once a second, as Nutch's fetcher reporting loop: a progress event (pages/s, bytes/s, active queues,
 * queued items), fetcher.timelimit.mins, and fetcher.throughput.threshold.* (pages/s below the
 * threshold more than `retries` times after `check.after` seconds stops the fetch).
 */
import type { Configuration } from '../../config/configuration.js';
import type { Logger } from '../../log.js';
import type { Counters, ProgressEvent } from '../progress.js';
import type { FetchItemQueues } from './fetch-item-queues.js';

export class FetchMonitor {
  private readonly timer: NodeJS.Timeout;
  private lastPages = 0;
  private lastBytes = 0;
  private lowThroughput = 0;
  private finalReport: () => void;

  constructor(
    conf: Configuration,
    counters: Counters,
    pages: () => number,
    /** URLs in crawl_generate: the progress events' total. */
    private readonly expected: number,
    queues: FetchItemQueues,
    started: number,
    log: Logger,
    onLimit: (why: 'time' | 'throughput') => void,
    onProgress?: (e: ProgressEvent) => void,
  ) {
    const timeLimitMins = conf.getFloat('fetcher.timelimit.mins', -1);
    const deadline = timeLimitMins > 0 ? started + timeLimitMins * 60_000 : Infinity;
    const threshold = conf.getInt('fetcher.throughput.threshold.pages', -1);
    const maxRetries = conf.getInt('fetcher.throughput.threshold.retries', 5);
    const checkAfter = conf.getInt('fetcher.throughput.threshold.check.after', 5) * 1000;
    let limited = false;
    const interval = timeLimitMins > 0 && timeLimitMins * 60_000 < 1000 ? Math.max(20, timeLimitMins * 60_000) : 1000;
    const report = (done: number, perSecond: number, bytesPerSecond: number) => onProgress?.({
      type: 'progress', stage: 'fetch', done, total: this.expected,
      counters: { ...counters, pages_per_second: Math.round(perSecond), bytes_per_second: Math.round(bytesPerSecond), active_queues: queues.queueCount, queued: queues.totalSize, in_flight: queues.inProgress },
    });
    // The last event carries the whole fetch's rates, so a fetch shorter than one interval reports too.
    this.finalReport = () => {
      const seconds = Math.max(0.001, (Date.now() - started) / 1000);
      report(pages(), pages() / seconds, (counters.bytes_downloaded ?? 0) / seconds);
    };
    const tick = () => {
      const now = Date.now();
      const total = pages();
      const perSecond = (total - this.lastPages) * (1000 / interval);
      this.lastPages = total;
      const bytes = counters.bytes_downloaded ?? 0;
      const bytesPerSecond = (bytes - this.lastBytes) * (1000 / interval);
      this.lastBytes = bytes;
      report(total, perSecond, bytesPerSecond);
      if (limited) return;
      if (now >= deadline) {
        limited = true;
        log.info(`fetcher.timelimit.mins (${timeLimitMins}) reached: queues emptied`);
        onLimit('time');
      } else if (threshold > 0 && now - started > checkAfter && perSecond < threshold) {
        if (++this.lowThroughput > maxRetries) {
          limited = true;
          log.info(`throughput below fetcher.throughput.threshold.pages (${threshold}/s) ${this.lowThroughput} times: queues emptied`);
          onLimit('throughput');
        }
      }
    };
    this.timer = setInterval(tick, interval);
    this.timer.unref();
  }

  /** Stops the reports; `final` sends one last progress event (done/total and the whole fetch's rates). */
  close(final = false): void {
    clearInterval(this.timer);
    if (final) this.finalReport();
  }
}

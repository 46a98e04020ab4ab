/**
 * Joins a segment part to a driving stream by URL with bounded memory. Segment parts written by the
 * same fetch/parse run are in nearly the same order, so the part's stream is read ahead and records
 * are matched as they come; records read ahead but not yet asked for wait in a window of at most
 * `window` entries (oldest evicted). A URL not found within the window falls back to a point lookup,
 * so the result is correct whatever the order, and fast when the orders agree.
 */
import type { Keyed } from '../../storage/interfaces.js';

export class LookaheadJoin<V> {
  private readonly pending = new Map<string, V>();
  private done = false;
  private evicted = false;
  lookups = 0;

  constructor(
    private readonly stream: AsyncIterator<Keyed<V>>,
    private readonly lookup: (url: string) => Promise<V | undefined>,
    private readonly window = 2000,
  ) {}

  async take(url: string): Promise<V | undefined> {
    const hit = this.pending.get(url);
    if (hit !== undefined) {
      this.pending.delete(url);
      return hit;
    }
    let read = 0;
    while (!this.done && read < this.window) {
      const next = await this.stream.next();
      if (next.done) {
        this.done = true;
        break;
      }
      read++;
      if (next.value.url === url) return next.value.value;
      // Keep the newest record of a URL (a re-fetch appended later wins).
      this.pending.delete(next.value.url);
      this.pending.set(next.value.url, next.value.value);
      if (this.pending.size > this.window) {
        this.pending.delete(this.pending.keys().next().value as string);
        this.evicted = true;
      }
    }
    // The whole part was read and nothing was dropped from the window: the URL is not in it.
    if (this.done && !this.evicted) return undefined;
    this.lookups++;
    return this.lookup(url);
  }

  /**
   * As take(), but never reads ahead: for a URL the part most likely lacks (a page that was not
   * fetched successfully has no parse). Reading ahead for it would fill the window with records
   * read out of turn — the whole window, each time, on a segment with many 404s — and once the
   * window overflows, every later miss becomes a point lookup.
   */
  async find(url: string): Promise<V | undefined> {
    const hit = this.pending.get(url);
    if (hit !== undefined) {
      this.pending.delete(url);
      return hit;
    }
    if (this.done && !this.evicted) return undefined;
    this.lookups++;
    return this.lookup(url);
  }

  async close(): Promise<void> {
    this.pending.clear();
    await this.stream.return?.();
  }
}

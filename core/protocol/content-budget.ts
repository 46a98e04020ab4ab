/**
 * The fetcher's in-flight content budget (`fetcher.content.budget`): the total bytes of response
 * bodies held at once — being read, or fetched and waiting to be written or parsed. Each fetch item
 * gets a lease; the protocol reserves on it as bytes arrive, and the fetcher releases the whole lease
 * once the item's output is written. A reservation that would overrun the budget is refused: the
 * protocol drops that response (the page is retried in a later round) instead of the process growing
 * with `threads × ceiling`. One lease alone can always hold a response up to fetcher.content.ceiling
 * (the budget is never smaller), so a refusal always leaves room for the others to finish.
 */
import type { Configuration } from '../config/configuration.js';
import { contentCeiling } from './content-ceiling.js';

export const CONTENT_BUDGET_PROPERTY = 'fetcher.content.budget';

/** What a protocol sees: reserve bytes before holding them; false = drop this response. */
export interface ContentLease {
  reserve(bytes: number): boolean;
}

export class ContentBudget {
  private held = 0;
  /** Most bytes held at once (reported as the fetch counter content_budget_peak). */
  peak = 0;
  /** Responses dropped because the budget was full. */
  refused = 0;

  constructor(readonly limit: number) {}

  static fromConf(conf: Configuration): ContentBudget {
    return new ContentBudget(Math.max(conf.getInt(CONTENT_BUDGET_PROPERTY, 256 * 1024 * 1024), contentCeiling(conf)));
  }

  get inUse(): number {
    return this.held;
  }

  lease(): ContentLease & { readonly bytes: number; release(): void } {
    let bytes = 0;
    let refused = false;
    return {
      get bytes() {
        return bytes;
      },
      reserve: (n: number) => {
        if (n <= 0) return true;
        if (refused || this.held + n > this.limit) {
          if (!refused) this.refused++;
          refused = true;
          return false;
        }
        this.held += n;
        bytes += n;
        if (this.held > this.peak) this.peak = this.held;
        return true;
      },
      release: () => {
        this.held -= bytes;
        bytes = 0;
      },
    };
  }
}

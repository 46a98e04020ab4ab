/**
 * The fetch stage as the CLI, the crawl loop and createNutch() run it: Fetcher, with the inline parse
 * wired when fetcher.parse is true, as Nutch's Fetcher. Its own module (stages.ts re-exports it), so
 * `nutch fetch` and `nutch worker` load the fetcher and the parse chain, not every other stage.
 */
import type { NutchContext } from '../context.js';
import type { Counters, StageOptions } from '../progress.js';
import { fetch, type FetchArgs } from './fetcher.js';
import { InlineParse } from '../parse/inline-parse.js';

/**
 * Fetch, with the inline parse wired when fetcher.parse is true, unless `inlineParse: false` (the crawl
 * loop resuming a fetch whose stopped inline parse it will replace with a whole-segment parse).
 */
export async function fetchStage(ctx: NutchContext, args: FetchArgs & { inlineParse?: boolean }, opts: StageOptions = {}): Promise<Counters> {
  if (!ctx.conf.getBoolean('fetcher.parse') || args.parse || args.inlineParse === false) return fetch(ctx, args, opts);
  const inline = await InlineParse.create(ctx);
  let counters: Counters | undefined;
  try {
    // each partition's parse parts end with its fetch, in the process that fetched it
    counters = await fetch(ctx, { ...args, parse: inline.parse, onPartitionEnd: inline.finishPartition, onSegmentEnd: inline.endSegment }, opts);
  } finally {
    const parsed = await inline.close();
    if (counters) for (const [k, v] of Object.entries(parsed)) counters[`parse.${k}`] = v;
  }
  return counters;
}

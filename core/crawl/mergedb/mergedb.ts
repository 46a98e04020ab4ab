/**
 * mergedb, as Nutch's CrawlDbMerger: several CrawlDbs into one output CrawlDb (replaced, as Nutch
 * installs a new `current`). Per URL the datum with the latest fetch time wins (on a tie, the one of
 * the CrawlDb named later); metadata of all of them is kept, the winner's values overriding.
 * -normalize / -filter apply the URL normalizers (scope crawldb) and filters to every URL.
 * One update session on the output: a crash leaves its previous state.
 */
import { NutchError } from '../../errors.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { Metadata } from '../../model/metadata.js';
import type { CrawlDb, CrawlDbUpdate } from '../../storage/interfaces.js';
import type { NutchContext } from '../context.js';
import type { Counters, StageOptions } from '../progress.js';
import { mergeStores } from '../merge/merge-stores.js';
import { urlRewrite } from '../merge/url-rewrite.js';
import { decodeDatum, encodeDatum } from './datum-codec.js';
import { openExistingInputs } from '../merge/open-inputs.js';

export interface MergeDbArgs {
  output: string;
  crawlDbs: string[];
  normalize?: boolean;
  filter?: boolean;
  force?: boolean;
}

export async function mergedb(ctx: NutchContext, args: MergeDbArgs, opts: StageOptions = {}): Promise<Counters> {
  if (args.crawlDbs.length === 0) throw new NutchError('NUTCH_USAGE', 'mergedb needs at least one input CrawlDb.');
  const counters: Counters = { 'urls merged': 0 };
  const inputs: CrawlDb[] = [];
  let output: CrawlDb | null = null;
  let session: CrawlDbUpdate | null = null;
  try {
    await openExistingInputs(args.crawlDbs, (p) => ctx.storage.openCrawlDb(p), 'CrawlDb', inputs);
    output = await ctx.storage.openCrawlDb(args.output);
    const rewrite = await urlRewrite(ctx, { normalize: args.normalize, filter: args.filter, scope: 'crawldb' });
    ctx.log.info(`CrawlDb merge: ${args.crawlDbs.length} CrawlDbs into ${args.output}; URL normalizing: ${!!args.normalize}; URL filtering: ${!!args.filter}`);
    session = await output.beginUpdate({ force: args.force });
    await mergeStores<CrawlDatum>({
      sources: inputs.map((db) => ({ name: db.path, scan: () => db.scan() })),
      previous: output.scan(),
      rewrite,
      encode: encodeDatum,
      decode: decodeDatum,
      reduce: (_url, values) => newest(values),
      sink: session,
      counters,
      signal: opts.signal,
    });
    if (opts.signal?.aborted) {
      await session.abort();
      counters.stopped = 1;
      return counters;
    }
    await session.commit();
    session = null;
    return counters;
  } finally {
    await session?.abort();
    for (const db of inputs) await db.close();
    await output?.close();
  }
}

/** As CrawlDbMerger.Merger: the latest fetch time wins; metadata of all, the winner's values last. */
function newest(values: CrawlDatum[]): CrawlDatum {
  let winner = values[0]!;
  for (const v of values.slice(1)) if (v.fetchTime >= winner.fetchTime) winner = v;
  const metaData: Metadata = {};
  for (const v of values) if (v !== winner) Object.assign(metaData, v.metaData);
  Object.assign(metaData, winner.metaData);
  return { ...winner, metaData };
}

/**
 * mergedb, as Nutch's CrawlDbMerger: several CrawlDbs into one output CrawlDb (replaced, as Nutch
 * installs a new `current`). Per URL the datum with the latest fetch time wins (on a tie, the one of
 * the CrawlDb named later); metadata of all of them is kept, the winner's values overriding.
 * -normalize / -filter apply the URL normalizers (scope crawldb) and filters to every URL.
 * One update session on the output: a crash leaves its previous state.
 */
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { Metadata } from '../../model/metadata.js';
import type { NutchContext } from '../context.js';
import type { Counters, StageOptions } from '../progress.js';
import { mergeDbs } from '../merge/merge-dbs.js';
import { decodeDatum, encodeDatum } from './datum-codec.js';

export interface MergeDbArgs {
  output: string;
  crawlDbs: string[];
  normalize?: boolean;
  filter?: boolean;
  force?: boolean;
}

export function mergedb(ctx: NutchContext, args: MergeDbArgs, opts: StageOptions = {}): Promise<Counters> {
  return mergeDbs<CrawlDatum>(ctx, {
    tool: 'mergedb',
    kind: 'CrawlDb',
    inputs: args.crawlDbs,
    output: args.output,
    open: (path) => ctx.storage.openCrawlDb(path),
    scope: 'crawldb',
    normalize: args.normalize,
    filter: args.filter,
    force: args.force,
    encode: encodeDatum,
    decode: decodeDatum,
    reduce: (_url, values) => newest(values),
  }, opts);
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

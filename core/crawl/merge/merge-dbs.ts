/**
 * The run of mergedb and mergelinkdb (Nutch's CrawlDbMerger and LinkDbMerger share it too): open and
 * check every input, open the output, build the -normalize / -filter rewrite, merge in one update
 * session on the output (committed at the end, aborted on a throw or a polite stop: a crash leaves the
 * output's previous state), close everything. The tools differ only in their store, codec and reduce.
 */
import { NutchError } from '../../errors.js';
import type { NormalizerScope } from '../../extension-points/url-normalizer.js';
import type { UrlRewrite } from '../../extension-points/normalize-then-filter.js';
import type { Keyed } from '../../storage/interfaces.js';
import type { NutchContext } from '../context.js';
import type { Counters, StageOptions } from '../progress.js';
import { mergeStores, type MergeSink } from './merge-stores.js';
import { openExistingInputs } from './open-inputs.js';
import { urlRewrite } from './url-rewrite.js';

interface MergeableStore<V> {
  readonly path: string;
  exists(): Promise<boolean>;
  scan(): AsyncIterable<Keyed<V>>;
  beginUpdate(opts?: { force?: boolean }): Promise<MergeSink<V> & { commit(): Promise<void>; abort(): Promise<void> }>;
  close(): Promise<void>;
}

export interface MergeDbsJob<V> {
  tool: 'mergedb' | 'mergelinkdb';
  kind: 'CrawlDb' | 'LinkDb';
  inputs: string[];
  output: string;
  open(path: string): Promise<MergeableStore<V>>;
  scope: NormalizerScope;
  normalize?: boolean;
  filter?: boolean;
  force?: boolean;
  encode(v: V): string;
  decode(s: string): V;
  /** Folds one URL's values (in input order); `rewrite` is the -normalize / -filter of the run. */
  reduce(url: string, values: V[], rewrite: UrlRewrite | undefined, counters: Counters): V | null;
}

export async function mergeDbs<V>(ctx: NutchContext, job: MergeDbsJob<V>, opts: StageOptions = {}): Promise<Counters> {
  if (job.inputs.length === 0) throw new NutchError('NUTCH_USAGE', `${job.tool} needs at least one input ${job.kind}.`);
  const counters: Counters = { 'urls merged': 0 };
  const inputs: MergeableStore<V>[] = [];
  let output: MergeableStore<V> | null = null;
  let session: Awaited<ReturnType<MergeableStore<V>['beginUpdate']>> | null = null;
  try {
    await openExistingInputs(job.inputs, job.open, job.kind, inputs);
    output = await job.open(job.output);
    const rewrite = await urlRewrite(ctx, { normalize: job.normalize, filter: job.filter, scope: job.scope });
    ctx.log.info(`${job.kind} merge: ${job.inputs.length} ${job.kind}s into ${job.output}; URL normalizing: ${!!job.normalize}; URL filtering: ${!!job.filter}`);
    session = await output.beginUpdate({ force: job.force });
    await mergeStores<V>({
      sources: inputs.map((db) => ({ name: db.path, scan: () => db.scan() })),
      previous: output.scan(),
      rewrite,
      encode: job.encode,
      decode: job.decode,
      reduce: (url, values) => job.reduce(url, values, rewrite, counters),
      sink: session,
      counters,
      signal: opts.signal,
    });
    if (opts.signal?.aborted) {
      await session.abort();
      session = null;
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

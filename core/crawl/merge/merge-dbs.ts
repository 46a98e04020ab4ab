/**
 * The run of mergedb and mergelinkdb (Nutch's CrawlDbMerger and LinkDbMerger share it too): open and
 * check every input, open the output, build the -normalize / -filter rewrite, merge in one update
 * session on the output (StageRun.inSession: committed at the end, aborted on a throw or a polite
 * stop: a crash leaves the output's previous state), close everything. The tools differ only in their
 * store, codec and reduce.
 */
import { NutchError } from '../../errors.js';
import type { NormalizerScope } from '../../extension-points/url-normalizer.js';
import type { UrlRewrite } from '../../extension-points/normalize-then-filter.js';
import type { Keyed } from '../../storage/interfaces.js';
import type { NutchContext } from '../context.js';
import type { Counters, StageOptions } from '../progress.js';
import { StageRun } from '../stage-run.js';
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
  const run = new StageRun(ctx, job.tool, opts, { 'urls merged': 0 });
  run.start({ output: job.output, inputs: job.inputs });
  const inputs: MergeableStore<V>[] = [];
  let output: MergeableStore<V> | null = null;
  try {
    await openExistingInputs(job.inputs, job.open, job.kind, inputs);
    output = await job.open(job.output);
    const out = output;
    const rewrite = await urlRewrite(ctx, { normalize: job.normalize, filter: job.filter, scope: job.scope });
    run.log.info(`${job.kind} merge: ${job.inputs.length} ${job.kind}s into ${job.output}; URL normalizing: ${!!job.normalize}; URL filtering: ${!!job.filter}`);
    await run.inSession(() => out.beginUpdate({ force: job.force }), async (session) => {
      await mergeStores<V>({
        sources: inputs.map((db) => ({ name: db.path, scan: () => db.scan() })),
        previous: out.scan(),
        rewrite,
        encode: job.encode,
        decode: job.decode,
        reduce: (url, values) => job.reduce(url, values, rewrite, run.counters),
        sink: session,
        counters: run.counters,
        signal: run.signal,
      });
      run.checkAborted();
    }, `${job.kind} merge: stopped; ${job.output} is unchanged`);
  } finally {
    for (const db of inputs) await db.close();
    await output?.close();
  }
  return run.finish();
}

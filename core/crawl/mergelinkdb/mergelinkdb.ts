/**
 * mergelinkdb, as Nutch's LinkDbMerger: several LinkDbs into one output LinkDb (replaced, as Nutch
 * installs a new `current`). Per URL the inlinks of all inputs, in the order the LinkDbs are named,
 * distinct (fromUrl, anchor), at most linkdb.max.inlinks. -normalize / -filter apply the URL
 * normalizers (scope linkdb) and filters to every URL and every inlink's fromUrl, as LinkDbFilter.
 * One update session on the output: a crash leaves its previous state.
 */
import { NutchError } from '../../errors.js';
import type { Inlink, Inlinks } from '../../model/inlinks.js';
import type { LinkDb, LinkDbUpdate } from '../../storage/interfaces.js';
import type { NutchContext } from '../context.js';
import { count, type Counters, type StageOptions } from '../progress.js';
import { mergeStores } from '../merge/merge-stores.js';
import { urlRewrite } from '../merge/url-rewrite.js';
import { openExistingInputs } from '../merge/open-inputs.js';

export interface MergeLinkDbArgs {
  output: string;
  linkDbs: string[];
  normalize?: boolean;
  filter?: boolean;
  force?: boolean;
}

export async function mergelinkdb(ctx: NutchContext, args: MergeLinkDbArgs, opts: StageOptions = {}): Promise<Counters> {
  if (args.linkDbs.length === 0) throw new NutchError('NUTCH_USAGE', 'mergelinkdb needs at least one input LinkDb.');
  const counters: Counters = { 'urls merged': 0 };
  const maxInlinks = ctx.conf.getInt('linkdb.max.inlinks', 10000);
  const inputs: LinkDb[] = [];
  let output: LinkDb | null = null;
  let session: LinkDbUpdate | null = null;
  try {
    await openExistingInputs(args.linkDbs, (p) => ctx.storage.openLinkDb(p), 'LinkDb', inputs);
    output = await ctx.storage.openLinkDb(args.output);
    const rewrite = await urlRewrite(ctx, { normalize: args.normalize, filter: args.filter, scope: 'linkdb' });
    ctx.log.info(`LinkDb merge: ${args.linkDbs.length} LinkDbs into ${args.output}; URL normalizing: ${!!args.normalize}; URL filtering: ${!!args.filter}`);
    session = await output.beginUpdate({ force: args.force });
    await mergeStores<Inlinks>({
      sources: inputs.map((db) => ({ name: db.path, scan: () => db.scan() })),
      previous: output.scan(),
      rewrite,
      encode: (v) => JSON.stringify(v.inlinks.map((l) => [l.fromUrl, l.anchor])),
      decode: (s) => ({ inlinks: (JSON.parse(s) as [string, string][]).map(([fromUrl, anchor]) => ({ fromUrl, anchor })) }),
      reduce: (_url, values) => {
        const seen = new Set<string>();
        const inlinks: Inlink[] = [];
        for (const v of values) {
          for (const l of v.inlinks) {
            if (inlinks.length >= maxInlinks) break;
            const from = rewrite ? rewrite(l.fromUrl) : l.fromUrl;
            if (from === null) {
              count(counters, 'inlinks filtered');
              continue;
            }
            const key = `${from}\u0000${l.anchor}`;
            if (seen.has(key)) continue;
            seen.add(key);
            inlinks.push({ fromUrl: from, anchor: l.anchor });
          }
        }
        return inlinks.length ? { inlinks } : null;
      },
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

/**
 * mergelinkdb, as Nutch's LinkDbMerger: several LinkDbs into one output LinkDb (replaced, as Nutch
 * installs a new `current`). Per URL the inlinks of all inputs, in the order the LinkDbs are named,
 * distinct (fromUrl, anchor), at most linkdb.max.inlinks. -normalize / -filter apply the URL
 * normalizers (scope linkdb) and filters to every URL and every inlink's fromUrl, as LinkDbFilter.
 * One update session on the output: a crash leaves its previous state.
 */
import type { Inlink, Inlinks } from '../../model/inlinks.js';
import type { NutchContext } from '../context.js';
import { count, type Counters, type StageOptions } from '../progress.js';
import { mergeDbs } from '../merge/merge-dbs.js';

export interface MergeLinkDbArgs {
  output: string;
  linkDbs: string[];
  normalize?: boolean;
  filter?: boolean;
  force?: boolean;
}

export function mergelinkdb(ctx: NutchContext, args: MergeLinkDbArgs, opts: StageOptions = {}): Promise<Counters> {
  const maxInlinks = ctx.conf.getInt('linkdb.max.inlinks', 10000);
  return mergeDbs<Inlinks>(ctx, {
    tool: 'mergelinkdb',
    kind: 'LinkDb',
    inputs: args.linkDbs,
    output: args.output,
    open: (path) => ctx.storage.openLinkDb(path),
    scope: 'linkdb',
    normalize: args.normalize,
    filter: args.filter,
    force: args.force,
    encode: (v) => JSON.stringify(v.inlinks.map((l) => [l.fromUrl, l.anchor])),
    decode: (s) => ({ inlinks: (JSON.parse(s) as [string, string][]).map(([fromUrl, anchor]) => ({ fromUrl, anchor })) }),
    reduce: (_url, values, rewrite, counters) => {
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
  }, opts);
}

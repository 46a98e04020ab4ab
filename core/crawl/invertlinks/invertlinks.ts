/**
 * invertlinks (`nutch invertlinks <linkdb> (-dir <segments> | <seg> ...)`), as Nutch's LinkDb: the
 * outlinks in the segments' parse_data become Inlinks of their targets (anchors cut to
 * db.max.anchor.length; links within a host dropped with linkdb.ignore.internal.links, links to other
 * hosts with linkdb.ignore.external.links; source and target normalised (scope linkdb) and filtered
 * unless -noNormalize / -noFilter), merged into the existing LinkDb as Nutch's LinkDbMerger: the
 * existing inlinks first, then the new ones, distinct (fromUrl, anchor) pairs, at most
 * linkdb.max.inlinks per URL. One LinkDbUpdate, committed at the end: a crash leaves the previous
 * LinkDb intact.
 */
import type { NutchContext } from '../context.js';
import { hostOf } from '../../url/url-parts.js';
import type { Inlink, Inlinks } from '../../model/inlinks.js';
import type { Keyed, LinkDb, LinkDbUpdate } from '../../storage/interfaces.js';
import type { Counters, StageOptions } from '../progress.js';
import { StageRun, formatCounters } from '../stage-run.js';
import { selectSegmentParts, type SegmentInput } from '../segment-parts.js';
import { normalizeThenFilter, type UrlRewrite } from '../../extension-points/normalize-then-filter.js';
import { yieldToEventLoop } from '../../storage/yield.js';
import { InlinkSort } from './inlink-sort.js';

export interface InvertLinksArgs {
  linkDb: string;
  segments: string[];
  noNormalize?: boolean;
  noFilter?: boolean;
  force?: boolean;
}

interface InvertSettings {
  batchSize: number;
  maxAnchorLength: number;
  maxInlinks: number;
  ignoreInternal: boolean;
  ignoreExternal: boolean;
}

export async function invertlinks(ctx: NutchContext, args: InvertLinksArgs, opts: StageOptions = {}): Promise<Counters> {
  const run = new StageRun(ctx, 'invertlinks', opts, { segments: 0, segments_skipped: 0, links_inverted: 0, links_ignored: 0, urls_filtered: 0, linkdb_urls_updated: 0 });
  const { conf } = ctx;
  const settings: InvertSettings = {
    batchSize: Math.max(1, conf.getInt('storage.batch.size')),
    maxAnchorLength: conf.getInt('db.max.anchor.length', 100),
    maxInlinks: conf.getInt('linkdb.max.inlinks', 10000),
    ignoreInternal: conf.getBoolean('linkdb.ignore.internal.links', true),
    ignoreExternal: conf.getBoolean('linkdb.ignore.external.links', false),
  };
  run.start({ linkDb: args.linkDb, segments: args.segments });
  run.log.info(`LinkDb: linkdb: ${args.linkDb}; URL normalize: ${!args.noNormalize}; URL filter: ${!args.noFilter}; internal links will be ${settings.ignoreInternal ? 'ignored' : 'kept'}; external links will be ${settings.ignoreExternal ? 'ignored' : 'kept'}`);
  const finish = () => run.finish((ms) => `LinkDb: finished, elapsed: ${ms} ms; ${formatCounters(run.counters)}`);

  const rewrite = normalizeThenFilter(
    args.noNormalize ? null : await ctx.extensions.urlNormalizers('linkdb'),
    args.noFilter ? null : await ctx.extensions.urlFilters(),
  );
  const inputs = await selectSegmentParts(ctx, run, args.segments, { required: ['parse_data'] });
  if (inputs.length === 0) {
    run.log.warn('LinkDb: no segment with a complete parse_data; the LinkDb is unchanged');
    return finish();
  }
  const linkDb = await ctx.storage.openLinkDb(args.linkDb);
  const staging = new InlinkSort();
  try {
    await run.inSession(() => linkDb.beginUpdate({ force: args.force }), async (session) => {
      await invertOutlinks(run, inputs, rewrite, staging, settings);
      await mergeIntoLinkDb(run, linkDb, session, staging, settings);
    }, 'LinkDb: stopped; nothing was merged, the LinkDb is unchanged');
  } finally {
    staging.close();
    await linkDb.close();
  }
  return finish();
}

/** 1. Every outlink of every parse becomes an inlink of its target (LinkDb's mapper), staged by target. */
async function invertOutlinks(run: StageRun, inputs: SegmentInput[], rewrite: UrlRewrite, staging: InlinkSort, o: InvertSettings): Promise<void> {
  const { counters } = run;
  let batch: { toUrl: string; fromUrl: string; anchor: string }[] = [];
  for (const { segment } of inputs) {
    run.log.info(`LinkDb: adding segment: ${segment.path}`);
    for await (const { url, value } of segment.read('parse_data')) {
      const fromHost = hostOf(url);
      const fromUrl = rewrite(url);
      if (fromUrl === null) { run.count('urls_filtered'); continue; }
      for (const outlink of value.outlinks ?? []) {
        if (o.ignoreInternal || o.ignoreExternal) {
          const toHost = hostOf(outlink.toUrl);
          const internal = toHost !== null && toHost === fromHost;
          if (toHost === null || (o.ignoreInternal && internal) || (!o.ignoreInternal && o.ignoreExternal && !internal)) {
            counters.links_ignored!++;
            continue;
          }
        }
        const toUrl = rewrite(outlink.toUrl);
        if (toUrl === null) { counters.urls_filtered!++; continue; }
        const anchor = (outlink.anchor ?? '').length > o.maxAnchorLength ? outlink.anchor.slice(0, o.maxAnchorLength) : (outlink.anchor ?? '');
        batch.push({ toUrl, fromUrl, anchor });
      }
      // a page of parse_data can hold 100,000 outlinks: give the loop a turn every batch
      if (batch.length >= o.batchSize) {
        staging.add(batch);
        counters.links_inverted! += batch.length;
        batch = [];
        run.checkAborted();
        run.progress(counters.links_inverted!);
        await yieldToEventLoop();
      }
    }
    await segment.close();
  }
  staging.add(batch);
  counters.links_inverted! += batch.length;
}

/** 2. Merge, one target URL at a time, with what the LinkDb already holds (LinkDbMerger). */
async function mergeIntoLinkDb(run: StageRun, linkDb: LinkDb, session: LinkDbUpdate, staging: InlinkSort, o: InvertSettings): Promise<void> {
  const { counters } = run;
  let group: { url: string; links: Inlink[] }[] = [];
  let current: { url: string; links: Inlink[] } | null = null;
  let steps = 0;
  const flush = async () => {
    if (group.length === 0) return;
    const existing = await linkDb.getMany(group.map((g) => g.url));
    const out: Keyed<Inlinks>[] = [];
    for (const g of group) out.push({ url: g.url, value: mergeInlinks(existing.get(g.url)?.inlinks ?? [], g.links, o.maxInlinks) });
    await session.put(out);
    counters.linkdb_urls_updated! += out.length;
    group = [];
    run.checkAborted();
    run.progress(counters.linkdb_urls_updated!);
  };
  for (const link of staging.links()) {
    if (!current || current.url !== link.toUrl) {
      current = { url: link.toUrl, links: [] };
      group.push(current);
      if (group.length > o.batchSize) {
        const last = group.pop()!;
        await flush();
        group.push(last);
      }
    }
    // Only maxInlinks new ones can ever be kept: the rest of a huge group is read and dropped.
    if (current.links.length < o.maxInlinks) current.links.push({ fromUrl: link.fromUrl, anchor: link.anchor });
    if (++steps % 5000 === 0) await yieldToEventLoop();
  }
  await flush();
  run.progress(counters.linkdb_urls_updated!, counters.linkdb_urls_updated!);
}

/** Existing inlinks first, then the new ones; distinct (fromUrl, anchor); at most max. */
export function mergeInlinks(existing: readonly Inlink[], added: readonly Inlink[], max: number): Inlinks {
  const seen = new Set<string>();
  const inlinks: Inlink[] = [];
  for (const list of [existing, added]) {
    for (const l of list) {
      if (inlinks.length >= max) return { inlinks };
      const key = `${l.fromUrl}\u0000${l.anchor}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inlinks.push({ fromUrl: l.fromUrl, anchor: l.anchor });
    }
  }
  return { inlinks };
}

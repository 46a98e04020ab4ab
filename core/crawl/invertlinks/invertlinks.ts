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
import type { Inlink, Inlinks } from '../../model/inlinks.js';
import type { Keyed, LinkDbUpdate } from '../../storage/interfaces.js';
import { count, type Counters, type ProgressEvent, type StageOptions, isPoliteStop } from '../progress.js';
import { selectSegmentParts } from '../updatedb/segment-parts.js';
import { InlinkStaging } from './inlink-staging.js';

export interface InvertLinksArgs {
  linkDb: string;
  segments: string[];
  noNormalize?: boolean;
  noFilter?: boolean;
  force?: boolean;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function invertlinks(ctx: NutchContext, args: InvertLinksArgs, opts: StageOptions = {}): Promise<Counters> {
  const started = Date.now();
  const counters: Counters = { segments: 0, segments_skipped: 0, links_inverted: 0, links_ignored: 0, urls_filtered: 0, linkdb_urls_updated: 0 };
  const emit = (e: ProgressEvent) => opts.onProgress?.(e);
  const log = ctx.log.child({ stage: 'invertlinks' });
  const { conf } = ctx;
  const batchSize = Math.max(1, conf.getInt('storage.batch.size'));
  const maxAnchorLength = conf.getInt('db.max.anchor.length', 100);
  const maxInlinks = conf.getInt('linkdb.max.inlinks', 10000);
  const ignoreInternal = conf.getBoolean('linkdb.ignore.internal.links', true);
  const ignoreExternal = conf.getBoolean('linkdb.ignore.external.links', false);
  emit({ type: 'stage-start', stage: 'invertlinks', args: { linkDb: args.linkDb, segments: args.segments } });
  log.info(`LinkDb: linkdb: ${args.linkDb}; URL normalize: ${!args.noNormalize}; URL filter: ${!args.noFilter}; internal links will be ${ignoreInternal ? 'ignored' : 'kept'}; external links will be ${ignoreExternal ? 'ignored' : 'kept'}`);

  const normalizers = args.noNormalize ? null : await ctx.extensions.urlNormalizers('linkdb');
  const filters = args.noFilter ? null : await ctx.extensions.urlFilters();
  const rewrite = (url: string): string | null => {
    let out: string | null = url;
    if (normalizers) out = normalizers.normalize(out);
    if (out !== null && filters) out = filters.filter(out);
    return out;
  };

  const inputs = await selectSegmentParts(ctx, 'invertlinks', args.segments, { required: ['parse_data'] }, log, counters, emit);
  if (inputs.length === 0) {
    log.warn('LinkDb: no segment with a complete parse_data; the LinkDb is unchanged');
    return finish();
  }
  const linkDb = await ctx.storage.openLinkDb(args.linkDb);
  const staging = new InlinkStaging();
  let session: LinkDbUpdate | undefined;
  try {
    session = await linkDb.beginUpdate({ force: args.force });
    // 1. Invert every outlink of every parse (LinkDb's mapper).
    let batch: { toUrl: string; fromUrl: string; anchor: string }[] = [];
    for (const { segment } of inputs) {
      log.info(`LinkDb: adding segment: ${segment.path}`);
      for await (const { url, value } of segment.read('parse_data')) {
        const fromHost = hostOf(url);
        const fromUrl = rewrite(url);
        if (fromUrl === null) { count(counters, 'urls_filtered'); continue; }
        for (const outlink of value.outlinks ?? []) {
          if (ignoreInternal || ignoreExternal) {
            const toHost = hostOf(outlink.toUrl);
            const internal = toHost !== null && toHost === fromHost;
            if (toHost === null || (ignoreInternal && internal) || (!ignoreInternal && ignoreExternal && !internal)) {
              counters.links_ignored!++;
              continue;
            }
          }
          const toUrl = rewrite(outlink.toUrl);
          if (toUrl === null) { counters.urls_filtered!++; continue; }
          const anchor = (outlink.anchor ?? '').length > maxAnchorLength ? outlink.anchor.slice(0, maxAnchorLength) : (outlink.anchor ?? '');
          batch.push({ toUrl, fromUrl, anchor });
        }
        // a page of parse_data can hold 100,000 outlinks: give the loop a turn every batch
        if (batch.length >= batchSize) {
          staging.add(batch);
          counters.links_inverted! += batch.length;
          batch = [];
          checkAborted(opts.signal);
          emit({ type: 'progress', stage: 'invertlinks', done: counters.links_inverted!, counters: { ...counters } });
          await yieldToEventLoop();
        }
      }
      await segment.close();
    }
    staging.add(batch);
    counters.links_inverted! += batch.length;

    // 2. Merge, one target URL at a time, with what the LinkDb already holds (LinkDbMerger).
    let group: { url: string; links: Inlink[] }[] = [];
    let current: { url: string; links: Inlink[] } | null = null;
    let steps = 0;
    const flush = async () => {
      if (group.length === 0) return;
      const existing = await linkDb.getMany(group.map((g) => g.url));
      const out: Keyed<Inlinks>[] = [];
      for (const g of group) out.push({ url: g.url, value: mergeInlinks(existing.get(g.url)?.inlinks ?? [], g.links, maxInlinks) });
      await session!.put(out);
      counters.linkdb_urls_updated! += out.length;
      group = [];
      checkAborted(opts.signal);
      emit({ type: 'progress', stage: 'invertlinks', done: counters.linkdb_urls_updated!, counters: { ...counters } });
    };
    for (const link of staging.links()) {
      if (!current || current.url !== link.toUrl) {
        current = { url: link.toUrl, links: [] };
        group.push(current);
        if (group.length > batchSize) {
          const last = group.pop()!;
          await flush();
          group.push(last);
        }
      }
      // Only maxInlinks new ones can ever be kept: the rest of a huge group is read and dropped.
      if (current.links.length < maxInlinks) current.links.push({ fromUrl: link.fromUrl, anchor: link.anchor });
      if (++steps % 5000 === 0) await yieldToEventLoop();
    }
    await flush();
    emit({ type: 'progress', stage: 'invertlinks', done: counters.linkdb_urls_updated!, total: counters.linkdb_urls_updated!, counters: { ...counters } });
    await session.commit();
    session = undefined;
  } catch (err) {
    await session?.abort();
    if (isPoliteStop(err, opts.signal)) {
      count(counters, 'stopped');
      log.warn('LinkDb: stopped; nothing was merged, the LinkDb is unchanged');
      return finish();
    }
    throw err;
  } finally {
    staging.close();
    await linkDb.close();
  }
  return finish();

  function finish(): Counters {
    const ms = Date.now() - started;
    log.info(`LinkDb: finished, elapsed: ${ms} ms; ${Object.entries(counters).map(([k, v]) => `${k}=${v}`).join(' ')}`);
    emit({ type: 'stage-end', stage: 'invertlinks', counters, ms });
    return counters;
  }
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


const AUTHORITY = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#:[\]]+)(?::\d*)?(?:[/?#]|$)/;

/** The lower-cased host, as java.net.URL.getHost(); a fast path for plain hosts, WHATWG URL otherwise. */
export function hostOf(url: string): string | null {
  const m = AUTHORITY.exec(url);
  if (m && !m[1]!.includes('%')) return m[1]!.toLowerCase();
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) {
    const err = new Error('invertlinks stopped');
    err.name = 'AbortError';
    throw err;
  }
}

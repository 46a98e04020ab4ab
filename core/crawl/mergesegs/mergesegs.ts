/**
 * mergesegs, as Nutch's SegmentMerger: several segments into one new segment under `<output>` (or,
 * with -slice N, one segment per N URLs). A part is merged only when every input segment holds it
 * complete (as Nutch, which writes only the parts all inputs have). Per URL and part, the records of
 * the newest segment (by name) holding that URL in that part win, so a refetch replaces an older fetch.
 * -filter / -normalize apply the URL filters / normalizers (scope segment) to every key.
 *
 * All parts go through one ExternalSort keyed by URL, so a URL's records of every part meet and land
 * in the same slice; memory stays bounded. Each output segment is staged and published when complete:
 * a crash leaves no half-merged segment. Slices are timestamped segments of their own (Nutch names
 * them `<name>-<slice>`), so listSegments and `-dir` see them as any other segment.
 */
import { NutchError } from '../../errors.js';
import { ExternalSort } from '../../storage/external-sort.js';
import { SEGMENT_PARTS, type Keyed, type SegmentPartName, type SegmentPartWriter, type StagedSegment } from '../../storage/interfaces.js';
import { yieldToEventLoop } from '../../storage/yield.js';
import type { NutchContext } from '../context.js';
import { count, type Counters, type StageOptions } from '../progress.js';
import { urlRewrite } from '../merge/url-rewrite.js';
import { decodeRecord, encodeRecord } from '../merge/record-codec.js';

export interface MergeSegsArgs {
  /** Parent directory of the output segment(s). */
  output: string;
  segments: string[];
  filter?: boolean;
  normalize?: boolean;
  /** URLs per output segment; 0 = one segment. */
  slice?: number;
}

const BATCH = 200;

export async function mergesegs(ctx: NutchContext, args: MergeSegsArgs, opts: StageOptions = {}): Promise<{ counters: Counters; segments: string[] }> {
  if (args.segments.length === 0) throw new NutchError('NUTCH_USAGE', 'mergesegs needs at least one input segment.');
  const counters: Counters = { 'urls merged': 0, 'segments written': 0 };
  const inputs = [];
  for (const path of args.segments) inputs.push(await ctx.storage.openSegment(path));
  // newest last: a later index wins
  inputs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const sort = new ExternalSort({ columns: 3 });
  const published: string[] = [];
  let staged: StagedSegment | null = null;
  let writers = new Map<SegmentPartName, SegmentPartWriter<unknown>>();
  const pending = new Map<SegmentPartName, Keyed<unknown>[]>();
  try {
    const parts: SegmentPartName[] = [];
    for (const part of SEGMENT_PARTS) {
      const missing = [];
      for (const seg of inputs) if (!(await seg.isComplete(part))) missing.push(seg.path);
      if (missing.length === 0) parts.push(part);
      else if (missing.length < inputs.length) ctx.log.warn(`mergesegs: ${part} is missing or incomplete in ${missing.join(', ')}; not merged`);
    }
    if (parts.length === 0) throw new NutchError('NUTCH_USAGE', `mergesegs: no part is complete in every input segment (${args.segments.join(', ')}); nothing to merge.`);
    ctx.log.info(`mergesegs: merging ${inputs.length} segments (${inputs.map((s) => s.name).join(', ')}), parts ${parts.join(', ')}`);
    const rewrite = await urlRewrite(ctx, { normalize: args.normalize, filter: args.filter, scope: 'default' });
    for (let s = 0; s < inputs.length; s++) {
      for (const part of parts) {
        let n = 0;
        for await (const { url, value } of inputs[s]!.read(part)) {
          if (opts.signal?.aborted) return stopped(counters, published);
          const to = rewrite ? rewrite(url) : url;
          if (to === null) {
            count(counters, 'records filtered');
            continue;
          }
          sort.add([to, s, SEGMENT_PARTS.indexOf(part), encodeRecord(value)]);
          if (++n % 2048 === 0) await yieldToEventLoop();
        }
      }
    }

    const flush = async (part: SegmentPartName, force = false) => {
      const batch = pending.get(part);
      if (!batch || batch.length === 0 || (!force && batch.length < BATCH)) return;
      await writers.get(part)!.append(batch);
      pending.set(part, []);
    };
    const closeSlice = async () => {
      if (!staged) return;
      for (const part of parts) {
        await flush(part, true);
        await writers.get(part)!.finish();
        await writers.get(part)!.close();
      }
      const seg = await staged.publish();
      published.push(seg.path);
      await seg.close();
      count(counters, 'segments written');
      staged = null;
      writers = new Map();
    };
    const openSlice = async () => {
      staged = await ctx.storage.createStagedSegment(args.output);
      for (const part of parts) {
        writers.set(part, (await staged.openWriter(part, 0, { totalPartitions: 1 })) as SegmentPartWriter<unknown>);
        pending.set(part, []);
      }
    };

    let urls = 0;
    let current: string | null = null;
    let group: { seg: number; part: number; value: string }[] = [];
    const emit = async () => {
      if (current === null) return;
      if (!staged || (args.slice && args.slice > 0 && urls > 0 && urls % args.slice === 0)) {
        await closeSlice();
        await openSlice();
      }
      urls++;
      count(counters, 'urls merged');
      for (let p = 0; p < SEGMENT_PARTS.length; p++) {
        const ofPart = group.filter((g) => g.part === p);
        if (ofPart.length === 0) continue;
        const newest = Math.max(...ofPart.map((g) => g.seg));
        const part = SEGMENT_PARTS[p]!;
        for (const g of ofPart) if (g.seg === newest) pending.get(part)!.push({ url: current, value: decodeRecord(g.value) });
        await flush(part);
      }
    };
    for (const [url, seg, part, value] of sort.sorted()) {
      if (opts.signal?.aborted) return stopped(counters, published);
      if (url !== current) {
        await emit();
        current = url;
        group = [];
      }
      group.push({ seg: seg as number, part: part as number, value: value as string });
    }
    await emit();
    await closeSlice();
    for (const p of published) ctx.log.info(`mergesegs: wrote ${p}`);
    return { counters, segments: published };
  } finally {
    sort.close();
    const left = staged as StagedSegment | null;
    if (left) {
      for (const w of writers.values()) await w.close().catch(() => undefined);
      await left.discard();
    }
    for (const seg of inputs) await seg.close();
  }
}

function stopped(counters: Counters, segments: string[]): { counters: Counters; segments: string[] } {
  counters.stopped = 1;
  return { counters, segments };
}

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
import { SEGMENT_PARTS, type Segment, type SegmentPartName } from '../../storage/interfaces.js';
import { yieldToEventLoop } from '../../storage/yield.js';
import type { UrlRewrite } from '../../extension-points/normalize-then-filter.js';
import type { NutchContext } from '../context.js';
import type { Counters, StageOptions } from '../progress.js';
import { StageRun } from '../stage-run.js';
import { urlRewrite } from '../merge/url-rewrite.js';
import { decodeRecord, encodeRecord } from '../merge/record-codec.js';
import { SliceWriter } from './slice-writer.js';

export interface MergeSegsArgs {
  /** Parent directory of the output segment(s). */
  output: string;
  segments: string[];
  filter?: boolean;
  normalize?: boolean;
  /** URLs per output segment; 0 = one segment. */
  slice?: number;
}

export async function mergesegs(ctx: NutchContext, args: MergeSegsArgs, opts: StageOptions = {}): Promise<{ counters: Counters; segments: string[] }> {
  if (args.segments.length === 0) throw new NutchError('NUTCH_USAGE', 'mergesegs needs at least one input segment.');
  const run = new StageRun(ctx, 'mergesegs', opts, { 'urls merged': 0, 'segments written': 0 });
  run.start({ output: args.output, segments: args.segments });
  const inputs: Segment[] = [];
  for (const path of args.segments) inputs.push(await ctx.storage.openSegment(path));
  // newest last: a later index wins
  inputs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const sort = new ExternalSort({ columns: 3 });
  let out: SliceWriter | null = null;
  try {
    const parts = await completeParts(run, inputs, args.segments);
    run.log.info(`mergesegs: merging ${inputs.length} segments (${inputs.map((s) => s.name).join(', ')}), parts ${parts.join(', ')}`);
    await sortRecords(run, inputs, parts, await urlRewrite(ctx, { normalize: args.normalize, filter: args.filter, scope: 'default' }), sort);
    out = new SliceWriter(ctx, args.output, parts, args.slice ?? 0);
    if (!run.stopping) await writeNewest(run, sort, out);
    if (run.stopping) run.count('stopped');
    else await out.closeSlice();
  } finally {
    sort.close();
    await out?.discard();
    for (const seg of inputs) await seg.close();
  }
  const segments = out?.published ?? [];
  run.count('segments written', segments.length);
  const counters = run.finish(segments.length ? () => segments.map((p) => `mergesegs: wrote ${p}`).join('\n') : undefined);
  return { counters, segments };
}

/** The parts every input holds complete; a part some inputs lack is named and not merged. */
async function completeParts(run: StageRun, inputs: Segment[], paths: string[]): Promise<SegmentPartName[]> {
  const parts: SegmentPartName[] = [];
  for (const part of SEGMENT_PARTS) {
    const missing = [];
    for (const seg of inputs) if (!(await seg.isComplete(part))) missing.push(seg.path);
    if (missing.length === 0) parts.push(part);
    else if (missing.length < inputs.length) run.log.warn(`mergesegs: ${part} is missing or incomplete in ${missing.join(', ')}; not merged`);
  }
  if (parts.length === 0) throw new NutchError('NUTCH_USAGE', `mergesegs: no part is complete in every input segment (${paths.join(', ')}); nothing to merge.`);
  return parts;
}

/** 1. Every record of every input part, keyed by its (rewritten) URL, into the sort with its segment and part. */
async function sortRecords(run: StageRun, inputs: Segment[], parts: SegmentPartName[], rewrite: UrlRewrite | undefined, sort: ExternalSort): Promise<void> {
  for (let s = 0; s < inputs.length; s++) {
    for (const part of parts) {
      let n = 0;
      for await (const { url, value } of inputs[s]!.read(part)) {
        if (run.stopping) return;
        const to = rewrite ? rewrite(url) : url;
        if (to === null) {
          run.count('records filtered');
          continue;
        }
        sort.add([to, s, SEGMENT_PARTS.indexOf(part), encodeRecord(value)]);
        if (++n % 2048 === 0) await yieldToEventLoop();
      }
    }
  }
}

/** 2. Per URL and part, the records of the newest segment holding it, into the slices. */
async function writeNewest(run: StageRun, sort: ExternalSort, out: SliceWriter): Promise<void> {
  let current: string | null = null;
  let group: { seg: number; part: number; value: string }[] = [];
  const emit = async () => {
    if (current === null) return;
    await out.nextUrl();
    run.count('urls merged');
    for (let p = 0; p < SEGMENT_PARTS.length; p++) {
      const ofPart = group.filter((g) => g.part === p);
      if (ofPart.length === 0) continue;
      const newest = Math.max(...ofPart.map((g) => g.seg));
      for (const g of ofPart) if (g.seg === newest) await out.add(SEGMENT_PARTS[p]!, { url: current, value: decodeRecord(g.value) });
    }
  };
  for (const [url, seg, part, value] of sort.sorted()) {
    if (run.stopping) return;
    if (url !== current) {
      await emit();
      current = url;
      group = [];
    }
    group.push({ seg: seg as number, part: part as number, value: value as string });
  }
  await emit();
}

/**
 * Which parts of which segments a stage reads. As Nutch, a segment missing a part the stage needs is
 * skipped with a warning naming it; here a part must also be complete (`_SUCCESS`), so the output of a
 * fetch or parse that was killed is never merged or indexed half-way. The one completeness rule and the
 * one partition count every stage uses live here.
 */
import path from 'node:path';
import type { NutchContext } from './context.js';
import type { Segment, SegmentPartName } from '../storage/interfaces.js';
import { isNutchError } from '../errors.js';
import type { StageRun } from './stage-run.js';

export interface SegmentInput {
  segment: Segment;
  parts: SegmentPartName[];
}

export interface PartRule {
  /** Parts without which the segment is skipped. */
  required: SegmentPartName[];
  /** Parts read when present and complete; an incomplete one is skipped with a warning. */
  optional?: SegmentPartName[];
}

export type PartState = 'complete' | 'missing' | 'incomplete';

/** The completeness rule: a part is readable once its writer finished (its `_SUCCESS` marker). */
export async function partState(segment: Segment, part: SegmentPartName): Promise<PartState> {
  if (!(await segment.hasPart(part))) return 'missing';
  return (await segment.isComplete(part)) ? 'complete' : 'incomplete';
}

/**
 * The segment's partition count: crawl_generate's -numFetchers, which every later part follows (fetch
 * writes content per fetch list, parse its output per content partition), so a part written from an
 * incomplete one still waits for the missing partitions before its `_SUCCESS`. Never fewer than the
 * partitions `part` holds (a segment whose crawl_generate was deleted, as Nutch lets users do); at least one.
 */
export async function partitionCountOf(segment: Segment, part?: SegmentPartName): Promise<number> {
  const present = part ? await segment.partitions(part) : [];
  return Math.max(1, await segment.partitionCount(), ...present.map((p) => p + 1));
}

/** Opens the segments and picks their readable parts; counts `segments` and `segments_skipped`. */
export async function selectSegmentParts(ctx: NutchContext, run: StageRun, segments: readonly string[], rule: PartRule): Promise<SegmentInput[]> {
  const { stage, log } = run;
  const out: SegmentInput[] = [];
  const skip = (culprit: string, reason: string) => {
    run.count('segments_skipped');
    log.warn(`${stage}: skipping ${culprit}: ${reason}`, { culprit });
    run.emit({ type: 'skip', stage, reason, culprit });
  };
  for (const dir of segments) {
    let segment: Segment;
    try {
      segment = await ctx.storage.openSegment(dir);
    } catch (err) {
      // As Nutch's CrawlDb/LinkDb jobs: a named segment that is not there (or is a file) is skipped with a warning.
      if (isNutchError(err, 'NUTCH_STORAGE_NOT_FOUND')) skip(dir, 'segment does not exist');
      else if (isNutchError(err, 'NUTCH_STORAGE_NOT_A_DIRECTORY')) skip(dir, 'it is a file, not a segment directory');
      else throw err;
      continue;
    }
    const parts: SegmentPartName[] = [];
    let usable = true;
    for (const part of rule.required) {
      const state = await partState(segment, part);
      if (state !== 'complete') {
        skip(path.join(segment.path, part), state === 'missing' ? `segment has no ${part}` : `${part} is incomplete (no _SUCCESS marker; its writer did not finish)`);
        usable = false;
        break;
      }
      parts.push(part);
    }
    if (!usable) {
      await segment.close();
      continue;
    }
    for (const part of rule.optional ?? []) {
      const where = path.join(segment.path, part);
      const state = await partState(segment, part);
      if (state === 'missing') {
        log.info(`${stage}: ${segment.path} has no ${part} (fetched but unparsed segment); using the other parts`);
        continue;
      }
      if (state === 'incomplete') {
        run.count('parts_skipped');
        log.warn(`${stage}: skipping ${where}: ${part} is incomplete (no _SUCCESS marker; its writer did not finish)`, { culprit: where });
        run.emit({ type: 'skip', stage, reason: `${part} is incomplete`, culprit: where });
        continue;
      }
      parts.push(part);
    }
    run.count('segments');
    out.push({ segment, parts });
  }
  return out;
}

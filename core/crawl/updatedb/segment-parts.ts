/**
 * Which parts of which segments a database stage reads. As Nutch, a segment missing a part the
 * stage needs is skipped with a warning naming it; here a part must also be complete (`_SUCCESS`),
 * so the output of a fetch or parse that was killed is never merged half-way.
 */
import path from 'node:path';
import type { NutchContext } from '../context.js';
import type { Segment, SegmentPartName } from '../../storage/interfaces.js';
import { isNutchError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { count, type Counters, type ProgressEvent, type StageName } from '../progress.js';

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

/** Opens the segments and picks their readable parts; counts `segments` and `segments_skipped`. */
export async function selectSegmentParts(
  ctx: NutchContext, stage: StageName, segments: readonly string[], rule: PartRule,
  log: Logger, counters: Counters, emit: (e: ProgressEvent) => void,
): Promise<SegmentInput[]> {
  const out: SegmentInput[] = [];
  const skip = (culprit: string, reason: string) => {
    count(counters, 'segments_skipped');
    log.warn(`${stage}: skipping ${culprit}: ${reason}`, { culprit });
    emit({ type: 'skip', stage, reason, culprit });
  };
  for (const dir of segments) {
    let segment: Segment;
    try {
      segment = await ctx.storage.openSegment(dir);
    } catch (err) {
      if (!isNutchError(err, 'NUTCH_STORAGE_NOT_FOUND')) throw err;
      skip(dir, 'segment does not exist');
      continue;
    }
    const parts: SegmentPartName[] = [];
    let usable = true;
    for (const part of rule.required) {
      const where = path.join(segment.path, part);
      if (!(await segment.hasPart(part))) {
        skip(where, `segment has no ${part}`);
        usable = false;
        break;
      }
      if (!(await segment.isComplete(part))) {
        skip(where, `${part} is incomplete (no _SUCCESS marker; its writer did not finish)`);
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
      if (!(await segment.hasPart(part))) {
        log.info(`${stage}: ${segment.path} has no ${part} (fetched but unparsed segment); using the other parts`);
        continue;
      }
      if (!(await segment.isComplete(part))) {
        count(counters, 'parts_skipped');
        log.warn(`${stage}: skipping ${where}: ${part} is incomplete (no _SUCCESS marker; its writer did not finish)`, { culprit: where });
        emit({ type: 'skip', stage, reason: `${part} is incomplete`, culprit: where });
        continue;
      }
      parts.push(part);
    }
    count(counters, 'segments');
    out.push({ segment, parts });
  }
  return out;
}

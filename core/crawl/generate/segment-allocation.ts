/**
 * The Generator's selection (Nutch's Selector reducer): walks the candidates best first and gives
 * each a segment. A segment holds at most topN URLs; with generate.max.count > 0 a host (or domain)
 * holds at most maxCount URLs per segment and overflows into the next segment, up to
 * maxNumSegments; what fits nowhere is skipped (URLS_SKIPPED_PER_HOST_OVERFLOW).
 */
import type { Candidate } from './candidate-runs.js';
import { count, type Counters } from '../progress.js';


export interface AllocationOptions {
  topN: number;
  maxCount: number;
  maxNumSegments: number;
  counters: Counters;
  /** A host's own maximum (generate -hostdb's generate.max.count.expr); default maxCount. */
  maxCountOf?(host: number): number;
  /** Told about each URL of a host that fits in no segment (URLS_SKIPPED_PER_HOST_OVERFLOW). */
  onHostOverflow?(host: number): void;
}

export class SegmentAllocation {
  readonly segments: string[][];
  private readonly segCounts: number[];
  private readonly hostCounts = new Map<number, [segment: number, count: number]>();
  private currentSegment = 0;

  constructor(private readonly o: AllocationOptions) {
    this.segments = Array.from({ length: o.maxNumSegments }, () => []);
    this.segCounts = new Array(o.maxNumSegments).fill(0);
  }

  /** False once every segment is full (stop walking). */
  get open(): boolean {
    return this.segCounts.some((n) => n < this.o.topN);
  }

  offer(c: Candidate): void {
    const { topN, maxNumSegments } = this.o;
    const maxCount = this.o.maxCountOf ? this.o.maxCountOf(c.host) : this.o.maxCount;
    let seg: number;
    if (maxCount <= 0) {
      while (this.currentSegment < maxNumSegments && this.segCounts[this.currentSegment] >= topN) this.currentSegment++;
      if (this.currentSegment >= maxNumSegments) return;
      seg = this.currentSegment;
    } else {
      let hc = this.hostCounts.get(c.host);
      if (!hc) this.hostCounts.set(c.host, (hc = [0, 0]));
      hc[1]++;
      // the host's segment is full: move the host on
      while (this.segCounts[hc[0]] >= topN && hc[0] < maxNumSegments - 1) {
        hc[0]++;
        hc[1] = 1;
      }
      if (hc[1] > maxCount) {
        if (hc[0] < maxNumSegments - 1) {
          hc[0]++;
          hc[1] = 1;
        } else {
          this.o.onHostOverflow?.(c.host);
          return;
        }
      }
      seg = hc[0];
      if (this.segCounts[seg] >= topN) {
        count(this.o.counters, 'URLS_SKIPPED_SEGMENTS_FULL');
        return;
      }
    }
    this.segments[seg].push(c.url);
    this.segCounts[seg]++;
  }
}

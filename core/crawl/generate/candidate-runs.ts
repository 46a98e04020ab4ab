/**
 * The Generator's sort, without one long synchronous sort: candidates are collected in runs of
 * RUN_SIZE, each run sorted on its own (a few ms), then the runs are merged lazily with a small
 * heap, yielding to the event loop every MERGE_STEP entries. Order: sort value descending, then URL.
 *
 * Runs are trimmed as they close: without generate.max.count only the best `keep` entries can ever
 * be selected (topN x maxNumSegments); with it, a host never gets more than perHost entries
 * (maxCount x maxNumSegments), so further entries of a host within one run are dropped.
 */
import { yieldToEventLoop } from '../../storage/yield.js';

export interface Candidate {
  url: string;
  sort: number;
  /** Host or domain id for generate.max.count (-1 when not counted). */
  host: number;
}

const RUN_SIZE = 20_000;
const MERGE_STEP = 5_000;

function compare(a: Candidate, b: Candidate): number {
  if (a.sort !== b.sort) return b.sort - a.sort;
  return a.url < b.url ? -1 : a.url > b.url ? 1 : 0;
}

export class CandidateRuns {
  private readonly runs: Candidate[][] = [];
  private current: Candidate[] = [];
  size = 0;

  constructor(
    private readonly keep: number,
    private readonly perHost: number,
    /** Told about each entry dropped because its host already has perHost better ones. */
    private readonly onHostOverflow: (c: Candidate) => void = () => {},
  ) {}

  add(c: Candidate): void {
    this.current.push(c);
    this.size++;
    if (this.current.length >= RUN_SIZE) this.closeRun();
  }

  private closeRun(): void {
    if (this.current.length === 0) return;
    let run = this.current.sort(compare);
    if (this.perHost > 0) {
      const seen = new Map<number, number>();
      run = run.filter((c) => {
        const n = (seen.get(c.host) ?? 0) + 1;
        seen.set(c.host, n);
        if (n <= this.perHost) return true;
        this.onHostOverflow(c);
        return false;
      });
    } else if (run.length > this.keep) {
      run.length = this.keep;
    }
    this.runs.push(run);
    this.current = [];
  }

  /** All candidates in order. */
  async *sorted(): AsyncGenerator<Candidate> {
    this.closeRun();
    const pos = this.runs.map(() => 0);
    // heap of run indexes, keyed by each run's current head
    const heap: number[] = [];
    const head = (r: number) => this.runs[r][pos[r]];
    const less = (i: number, j: number) => compare(head(heap[i]), head(heap[j])) < 0;
    const swap = (i: number, j: number) => { [heap[i], heap[j]] = [heap[j], heap[i]]; };
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < heap.length && less(l, m)) m = l;
        if (r < heap.length && less(r, m)) m = r;
        if (m === i) return;
        swap(i, m);
        i = m;
      }
    };
    for (let r = 0; r < this.runs.length; r++) if (this.runs[r].length) heap.push(r);
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    let n = 0;
    while (heap.length) {
      const r = heap[0];
      yield this.runs[r][pos[r]++];
      if (pos[r] >= this.runs[r].length) {
        this.runs[r] = [];
        heap[0] = heap[heap.length - 1];
        heap.pop();
      }
      if (heap.length) down(0);
      if (++n % MERGE_STEP === 0) await yieldToEventLoop();
    }
  }
}

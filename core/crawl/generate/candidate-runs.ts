/**
 * The Generator's sort, without one long synchronous sort and without an object per candidate:
 * candidates are collected in runs of RUN_SIZE (10,000) held as parallel arrays (URL, sort value, host id),
 * each run sorted on its own (a few ms), then the runs are merged lazily with a small heap,
 * yielding to the event loop every MERGE_STEP entries. Order: sort value descending, then URL.
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

const RUN_SIZE = 10_000;
const MERGE_STEP = 5_000;

interface Run {
  urls: string[];
  sorts: Float64Array;
  hosts: Int32Array;
}

export class CandidateRuns {
  private readonly runs: Run[] = [];
  private urls: string[] = [];
  private sorts = new Float64Array(RUN_SIZE);
  private hosts = new Int32Array(RUN_SIZE);
  size = 0;

  constructor(
    private readonly keep: number,
    private readonly perHost: number,
    /** Told about each entry dropped because its host already has perHost better ones. */
    private readonly onHostOverflow: (c: Candidate) => void = () => {},
  ) {}

  add(c: Candidate): void {
    const i = this.urls.length;
    this.urls.push(c.url);
    this.sorts[i] = c.sort;
    this.hosts[i] = c.host;
    this.size++;
    if (this.urls.length >= RUN_SIZE) this.closeRun();
  }

  private closeRun(): void {
    const n = this.urls.length;
    if (n === 0) return;
    const { urls, sorts, hosts } = this;
    const order = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) =>
      sorts[a] !== sorts[b] ? sorts[b] - sorts[a] : urls[a] < urls[b] ? -1 : urls[a] > urls[b] ? 1 : 0);
    const seen = new Map<number, number>();
    const run: Run = { urls: [], sorts: new Float64Array(Math.min(n, this.perHost > 0 ? n : this.keep)), hosts: new Int32Array(0) };
    const keptHosts: number[] = [];
    for (const i of order) {
      if (this.perHost > 0) {
        const count = (seen.get(hosts[i]) ?? 0) + 1;
        seen.set(hosts[i], count);
        if (count > this.perHost) {
          this.onHostOverflow({ url: urls[i], sort: sorts[i], host: hosts[i] });
          continue;
        }
      } else if (run.urls.length >= this.keep) {
        break;
      }
      run.sorts[run.urls.length] = sorts[i];
      run.urls.push(urls[i]);
      keptHosts.push(hosts[i]);
    }
    run.sorts = run.sorts.subarray(0, run.urls.length);
    run.hosts = Int32Array.from(keptHosts);
    this.runs.push(run);
    this.urls = [];
    this.sorts = new Float64Array(RUN_SIZE);
    this.hosts = new Int32Array(RUN_SIZE);
  }

  /** All candidates in order. */
  async *sorted(): AsyncGenerator<Candidate> {
    this.closeRun();
    const runs = this.runs;
    const pos = runs.map(() => 0);
    const before = (r: number, s: number) => {
      const a = runs[r], b = runs[s], i = pos[r], j = pos[s];
      if (a.sorts[i] !== b.sorts[j]) return a.sorts[i] > b.sorts[j];
      return a.urls[i] < b.urls[j];
    };
    // heap of run indexes, keyed by each run's current head
    const heap: number[] = [];
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < heap.length && before(heap[l], heap[m])) m = l;
        if (r < heap.length && before(heap[r], heap[m])) m = r;
        if (m === i) return;
        [heap[i], heap[m]] = [heap[m], heap[i]];
        i = m;
      }
    };
    for (let r = 0; r < runs.length; r++) if (runs[r].urls.length) heap.push(r);
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    let n = 0;
    while (heap.length) {
      const r = heap[0];
      const run = runs[r];
      const i = pos[r]++;
      yield { url: run.urls[i], sort: run.sorts[i], host: run.hosts[i] };
      if (pos[r] >= run.urls.length) {
        runs[r] = { urls: [], sorts: new Float64Array(0), hosts: new Int32Array(0) };
        heap[0] = heap[heap.length - 1];
        heap.pop();
      }
      if (heap.length) down(0);
      if (++n % MERGE_STEP === 0) await yieldToEventLoop();
    }
  }
}

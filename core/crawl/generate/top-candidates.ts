/**
 * The Generator's candidates when the selection is bounded (a finite topN, one segment, or no
 * generate.max.count): only the best `keep` candidates can ever be selected, with at most `perHost`
 * of one host (0: no cap), so only those are kept — memory grows with topN, not with the number of
 * due URLs. Order: sort value descending, then URL (as CandidateRuns).
 *
 * Two min-heaps (the worst candidate on top): one over every kept candidate, and with a host cap one
 * per host. A candidate no better than the worst of `keep` kept ones cannot get in (admits() says so
 * before the caller spends a host normalisation on it); a host's candidate beyond its cap pushes the
 * host's worst out (or is refused), counted as a host overflow as CandidateRuns does. A candidate
 * pushed out of its host is marked dead in the global heap and dropped when it surfaces; the heap is
 * rebuilt when the dead outnumber the live, so it never holds more than 2 x keep entries.
 *
 * Exactness: the kept set is the best `keep` of the candidates that are among their host's best
 * perHost — what SegmentAllocation walks before it is full when there is one segment (each of those
 * fits: its host has fewer than maxCount better ones) or no host cap (segments fill in order).
 */
import type { Candidate } from './candidate-runs.js';
import { yieldToEventLoop } from '../../storage/yield.js';
import { WorstFirstHeap } from '../worst-first-heap.js';

interface Entry extends Candidate {
  dead: boolean;
}

const YIELD_STEP = 5_000;

/** a ranks below b: lower sort value, or the same and a later URL. */
function worse(a: Candidate, b: Candidate): boolean {
  return a.sort !== b.sort ? a.sort < b.sort : a.url > b.url;
}

export class TopCandidates {
  private readonly all = new WorstFirstHeap<Entry>(worse);
  private readonly byHost = new Map<number, WorstFirstHeap<Entry>>();
  private live = 0;

  constructor(
    private readonly keep: number,
    private readonly perHost: number,
    /** Told about each candidate refused or pushed out because its host already has perHost better ones. */
    private readonly onHostOverflow: (c: Candidate) => void = () => {},
  ) {}

  /** Candidates kept now. */
  get size(): number {
    return this.live;
  }

  /** The worst live candidate kept (dead ones on top are dropped first). */
  private worstLive(): Entry | undefined {
    let top = this.all.peek();
    while (top?.dead) {
      this.all.pop();
      top = this.all.peek();
    }
    return top;
  }

  /** False when a candidate of this sort value and URL could not be kept: `keep` better ones are kept already. */
  admits(sort: number, url: string): boolean {
    if (this.live < this.keep) return true;
    const worst = this.worstLive();
    return !worst || worse(worst, { url, sort, host: -1 });
  }

  add(c: Candidate): void {
    if (!this.admits(c.sort, c.url)) return;
    const e: Entry = { url: c.url, sort: c.sort, host: c.host, dead: false };
    if (this.perHost > 0) {
      let hh = this.byHost.get(c.host);
      if (!hh) this.byHost.set(c.host, (hh = new WorstFirstHeap<Entry>(worse)));
      if (hh.size >= this.perHost) {
        const hostWorst = hh.peek()!;
        if (!worse(hostWorst, e)) {
          this.onHostOverflow(c);
          return;
        }
        hh.pop();
        hostWorst.dead = true;
        this.live--;
        this.onHostOverflow(hostWorst);
      }
      hh.push(e);
    }
    this.all.push(e);
    this.live++;
    if (this.live > this.keep) {
      // the worst live candidate overall is also the worst of its host
      const out = this.worstLive()!;
      this.all.pop();
      this.live--;
      if (this.perHost > 0) this.byHost.get(out.host)!.pop();
    }
    if (this.all.size > 2 * Math.max(this.live, 1024)) this.all.reset(this.all.items.filter((x) => !x.dead));
  }

  /** The kept candidates, best first. */
  async *sorted(): AsyncGenerator<Candidate> {
    const order: Entry[] = [];
    let steps = 0;
    for (let e = this.all.pop(); e; e = this.all.pop()) {
      if (!e.dead) order.push(e);
      if (++steps % YIELD_STEP === 0) await yieldToEventLoop();
    }
    this.byHost.clear();
    this.live = 0;
    for (let i = order.length - 1, n = 1; i >= 0; i--, n++) {
      const e = order[i]!;
      yield { url: e.url, sort: e.sort, host: e.host };
      if (n % YIELD_STEP === 0) await yieldToEventLoop();
    }
  }
}

/**
 * Generate's first step, as the Selector mapper of Nutch's Generator: every CrawlDb record through
 * the Selector checks (selector.ts), each due URL a candidate with its sort value and host id, kept
 * by a TopCandidates (bounded, best first) or CandidateRuns (every candidate, in sorted runs).
 */
import type { CrawlDb } from '../../storage/interfaces.js';
import { TimeSlice } from '../../storage/yield.js';
import type { StageRun } from '../stage-run.js';
import type { Candidate } from './candidate-runs.js';
import type { HostIds } from './host-ids.js';
import { NOT_ADMITTED, selectSortValue, type SelectorOptions } from './selector.js';

/** Where candidates go: TopCandidates (which may refuse a record before the selector's costly checks) or CandidateRuns. */
export interface CandidateStore {
  add(c: Candidate): void;
  admits?(sort: number, url: string): boolean;
}

export interface SelectionOptions {
  selector: SelectorOptions;
  /** Host ids when hosts are counted (generate.max.count or a HostDb expression), else null: every host -1. */
  hostIds: HostIds | null;
  batchSize: number;
  slice: TimeSlice;
}

/** Scans the CrawlDb into `store`; sets the records_scanned and candidates counters. Stops early when the stage is stopping. */
export async function selectCandidates(run: StageRun, db: CrawlDb, store: CandidateStore, o: SelectionOptions): Promise<void> {
  const admits = store.admits ? (sort: number, url: string) => store.admits!(sort, url) : null;
  let scanned = 0;
  let candidates = 0;
  // The lock is held and the session writes nothing before the marks at the end, so the committed
  // CrawlDb (the reader connection, on this thread) is exactly what the session would read.
  for await (const { url, value } of db.scan({ batchSize: o.batchSize })) {
    await o.slice.tick();
    if (++scanned % o.batchSize === 0) {
      run.progress(scanned);
      if (run.stopping) break;
    }
    // with a bounded selection, a record ranked below the topN candidates kept so far can never be
    // selected: it is neither filtered nor host-normalised (selector.ts, top-candidates.ts)
    const sort = selectSortValue(url, value, o.selector, admits ? (v) => admits(v, url) : undefined);
    if (sort === null) continue;
    candidates++;
    if (sort === NOT_ADMITTED) continue;
    let host = -1;
    if (o.hostIds) {
      const id = o.hostIds.of(url);
      if (id === null) {
        run.count('MALFORMED_URL');
        continue;
      }
      host = id;
    }
    store.add({ url, sort, host });
  }
  run.counters.records_scanned = scanned;
  run.counters.candidates = candidates;
}

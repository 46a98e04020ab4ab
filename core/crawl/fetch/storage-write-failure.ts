/**
 * A write to the segment that failed (disk full, I/O error, a value the engine refuses, a lost lease).
 * The fetcher stops on it with a storage error naming the segment and the URL being recorded; it is
 * never counted as the protocol's failure nor recorded against the page, and what was committed
 * before stays (a re-run resumes after it). Each fetch run keeps its own set: no state outlives it.
 */
import { NutchError, isNutchError } from '../../errors.js';

export class StorageWriteFailures {
  private readonly failures = new WeakSet<object>();

  /** The error the fetch stops with, remembered as this run's storage failure. */
  wrap(err: unknown, segment: string, url: string): Error {
    // a storage error that already carries its own code (NUTCH_LEASE_LOST, NUTCH_STORAGE_CORRUPT) keeps it
    const out = isNutchError(err) && !isNutchError(err, 'NUTCH_STORAGE_WRITE_FAILED') ? err : new NutchError(
      'NUTCH_STORAGE_WRITE_FAILED',
      `Writing segment ${segment} failed while recording ${url}: ${(err as Error)?.message ?? String(err)}. What was committed before is kept; fix the cause (disk space, permissions) and run the stage again to resume.`,
      { segment, url },
      { cause: err },
    );
    this.failures.add(out);
    return out;
  }

  has(err: unknown): boolean {
    return typeof err === 'object' && err !== null && this.failures.has(err);
  }
}

/**
 * Progress events: one discriminated union for every stage. The SDK's crawl() yields them; the CLI
 * renders them as a progress bar on a TTY and as structured log lines otherwise.
 */
export type StageName =
  | 'inject' | 'generate' | 'fetch' | 'parse' | 'updatedb' | 'invertlinks' | 'index' | 'dedup' | 'clean' | 'crawl' | 'sitemap' | 'updatehostdb'
  | 'freegen' | 'mergedb' | 'mergelinkdb' | 'mergesegs' | 'readdb';

export type Counters = Record<string, number>;

export type ProgressEvent =
  | { type: 'stage-start'; stage: StageName; round?: number; args?: Record<string, unknown> }
  | { type: 'progress'; stage: StageName; done: number; total?: number; counters?: Counters }
  | { type: 'page'; stage: StageName; url: string; status: string; httpCode?: number; bytes?: number; ms?: number }
  | { type: 'skip'; stage: StageName; url?: string; reason: string; culprit?: string }
  | { type: 'error'; stage: StageName; url?: string; code?: string; message: string }
  | { type: 'stage-end'; stage: StageName; round?: number; counters: Counters; ms: number };

export interface StageOptions {
  signal?: AbortSignal;
  onProgress?(e: ProgressEvent): void;
}

/** Increments a Nutch-named counter. */
export function count(counters: Counters, name: string, by = 1): void {
  counters[name] = (counters[name] ?? 0) + by;
}

/** True when `err` is the AbortError a stage's own signal raised: a polite stop, not a failure. */
export function isPoliteStop(err: unknown, signal?: AbortSignal): boolean {
  return !!signal?.aborted && (err as { name?: string } | null)?.name === 'AbortError';
}

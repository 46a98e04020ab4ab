/** Messages between the parse pool (main thread) and a parse worker. Plain, structured-cloneable. */
import type { ConfigurationSnapshot } from '../config/configuration.js';
import type { Content } from '../model/content.js';
import type { ParseResult } from '../model/parse.js';
import type { PluginDescriptor } from '../plugin/plugin-descriptor.js';

/**
 * Bytes of ArrayBuffers a worker may still hold after a parse before it retires. HTML pages leave a
 * few MB; a large document leaves its copies until V8's next full collection, and a parser that
 * abandoned a library mid-way (pdf.js over tika.pdf.max.bytes) leaves whatever that library still
 * references: a new worker is cheaper than carrying that into every later page.
 */
export const RETIRE_BUFFER_BYTES = 64 * 1024 * 1024;

export interface WorkerInit {
  conf: ConfigurationSnapshot;
  /**
   * The active plugins as the main thread read their manifests (objects cannot cross threads; their
   * points never run here): a worker reads and validates no manifest again.
   */
  plugins: PluginDescriptor[];
  logLevel: string;
}

export type ToWorker =
  /** `lent`: content.content was moved here, not copied; it goes back with the answer (lentBytes). */
  | { type: 'parse'; id: number; content: Content; forceAs?: string; lent?: boolean }
  /** A full garbage collection, sent to an idle worker between rounds (the crawl loop's collectGarbage). */
  | { type: 'collect-garbage' }
  | { type: 'close' };

export interface SerializedError {
  message: string;
  code?: string;
  stack?: string;
}

export type FromWorker =
  | { type: 'ready' }
  | { type: 'init-error'; error: SerializedError }
  | ({ type: 'result'; id: number; result: ParseResult; signature: Uint8Array | null; parser?: string } & Answer)
  | ({ type: 'error'; id: number; error: SerializedError } & Answer)
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; msg: string; fields?: Record<string, unknown> }
  /** `collected`: false when the worker had no gc() to call. */
  | { type: 'garbage-collected'; collected: boolean }
  | { type: 'closed' };

/** What every answer to a page carries besides the parse. */
export interface Answer {
  /** The lent content bytes, moved back. */
  lentBytes?: Uint8Array;
  /** Set when the worker is left holding more than RETIRE_BUFFER_BYTES of buffers after this page: it
   * takes no more pages, and the pool replaces it (its memory all returns at once) and resends what
   * it had queued there. */
  retireBufferBytes?: number;
}

export function serializeError(err: unknown): SerializedError {
  if (err && typeof err === 'object') {
    const e = err as { message?: unknown; code?: unknown; stack?: unknown };
    return { message: String(e.message ?? err), code: typeof e.code === 'string' ? e.code : undefined, stack: typeof e.stack === 'string' ? e.stack : undefined };
  }
  return { message: String(err) };
}

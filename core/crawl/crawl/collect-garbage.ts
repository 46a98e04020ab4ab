/**
 * A full garbage collection between the crawl loop's stages. A stage of a large round leaves tens of
 * MB of garbage in the old generation (records, batches, page texts), and V8 collects it lazily, when
 * the heap has grown well past the live data: over a crawl the main heap climbs to 2–3× what is alive.
 * One full collection after such a stage starts the next stage from the live set, which is what keeps
 * `nutch crawl`'s peak RSS within the 400 MB of the end-to-end bench. A stage of a small round leaves
 * a few MB, and a collection after it (5–25 CPU-ms, 30–300 ms of wall time on a loaded machine) would
 * be most of its cost: `collectWhenGrown` skips it until the heap has grown by GC_MIN_GROWTH.
 *
 * The `nutch` CLI owns its process, so it turns on V8's gc() for itself (`exposeGc`). A library must not
 * change its host's V8 flags: createNutch() collects only when the app already runs with --expose-gc.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = () => void;

/** gc() when the process was started with --expose-gc, else undefined. */
export function existingGc(): Gc | undefined {
  const gc = (globalThis as { gc?: unknown }).gc;
  return typeof gc === 'function' ? (gc as Gc) : undefined;
}

/** gc(), turning V8's --expose-gc on for this process if it is off. For the CLI only. */
export function exposeGc(): Gc | undefined {
  const existing = existingGc();
  if (existing) return existing;
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('typeof gc === "function" ? gc : undefined') as Gc | undefined;
  v8.setFlagsFromString('--no-expose-gc');
  return gc;
}

/** Growth of the heap (V8's plus the buffers outside it) since the last collection that makes the next one worth its cost. */
export const GC_MIN_GROWTH = 16 * 1024 * 1024;

/**
 * `gc` run only when the heap has grown by at least `minGrowth` bytes since the last collection it
 * ran (the first call collects when the heap is that large), so at most that much garbage is carried
 * into the next stage; undefined when `gc` is.
 */
export function collectWhenGrown(gc: Gc | undefined, minGrowth = GC_MIN_GROWTH): Gc | undefined {
  if (!gc) return undefined;
  let afterLast = 0;
  return () => {
    if (heapBytes() - afterLast < minGrowth) return;
    gc();
    afterLast = heapBytes();
  };
}

function heapBytes(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

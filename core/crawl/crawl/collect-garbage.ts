/**
 * A full garbage collection between the crawl loop's stages. Each stage leaves tens of MB of garbage
 * in the old generation (records, batches, page texts), and V8 collects it lazily, when the heap has
 * grown well past the live data: over a crawl the main heap climbs to 2–3× what is alive. One full
 * collection after a stage (about 25 ms) starts the next stage from the live set, which is what keeps
 * `nutch crawl`'s peak RSS within the 400 MB of the end-to-end bench.
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

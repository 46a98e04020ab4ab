/**
 * Starting a parse worker thread. From source (tsx), `new Worker('x.ts')` does not work, so an eval
 * bootstrap registers tsx's ESM hooks (`register()` from `tsx/esm/api`) and imports the .ts entry; from
 * the build, the worker is dist/core/parse/parse-worker.js. Each worker's heap is bounded, so a
 * pathological page kills its worker, not the crawler.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { NutchError, type ErrorCode } from '../errors.js';
import { packageRoot } from '../config/package-root.js';
import type { SerializedError, WorkerInit } from './worker-protocol.js';

const fromSource = import.meta.url.endsWith('.ts');
const WORKER_HEAP_MB = 1536;
/** A parse allocates a DOM and strings that die with it: a small young generation keeps the worker's
 * footprint small at the cost of a few more (cheap) scavenges. */
const WORKER_YOUNG_MB = 8;

export function createWorker(init: WorkerInit): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB };
  if (!fromSource) return new Worker(join(packageRoot(), 'dist', 'core', 'parse', 'parse-worker.js'), { workerData: init, resourceLimits });
  const entry = new URL('./parse-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`
    + `.catch((e) => { require('node:worker_threads').parentPort.postMessage({ type: 'init-error', error: { message: String((e && e.stack) || e) } }); });`;
  return new Worker(bootstrap, { eval: true, workerData: init, resourceLimits });
}

/** Keeps the worker's own code for plugin and configuration errors; anything else is NUTCH_PARSE_WORKER_FAILED. */
export function workerStartError(e: SerializedError): NutchError {
  const kept = /^NUTCH_(PLUGIN_|PARSE_PLUGINS_|CONFIG_|EXTENSION_NOT_FOUND)/.test(e.code ?? '');
  return new NutchError((kept ? e.code : 'NUTCH_PARSE_WORKER_FAILED') as ErrorCode, `Parse worker could not start: ${e.message}`);
}

/**
 * undici, loaded when the first HTTP dispatcher is made rather than when a module naming it is.
 * nutch-ts/plugin re-exports HttpDispatchers, so a static import here made every plugin — an index
 * writer opened by `nutch search`, each parse worker's parsers — evaluate undici and the Node built-ins
 * it pulls in (node:http2, web streams): ~0.2 CPU-s per process or thread that never fetches.
 */
import { lazyModule } from '../lazy-module.js';

export const undiciModule = lazyModule<typeof import('undici')>('undici');

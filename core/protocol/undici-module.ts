/**
 * undici, loaded when the first HTTP dispatcher is made rather than when a module naming it is.
 * nutch-ts/plugin re-exports HttpDispatchers, so a static import here made every plugin — an index
 * writer opened by `nutch search`, each parse worker's parsers — evaluate undici and the Node built-ins
 * it pulls in (node:http2, web streams): ~0.2 CPU-s per process or thread that never fetches.
 *
 * The fetch path needs only undici's Agent, its connector and its `request` API, so `undiciFetchParts`
 * requires those three modules and not undici's entry point, which also evaluates fetch, WebSocket,
 * EventSource, the cache stores and the mock agents: 0.29 against 0.10 CPU-s over `node -e 0`
 * (Node 20.20, median of 7). undici 7 declares no `exports`, so its files may be required by path;
 * should a later undici move them, the entry point is used instead (same classes, slower start).
 */
import type { Agent, Dispatcher, buildConnector as BuildConnector } from 'undici';
import { lazyModule } from '../lazy-module.js';

export const undiciModule = lazyModule<typeof import('undici')>('undici');

type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & { method?: Dispatcher.HttpMethod };

export interface UndiciFetchParts {
  Agent: typeof Agent;
  buildConnector: typeof BuildConnector;
  /** undici's `request(url, { dispatcher, ... })`, for a URL already parsed. */
  request(url: URL, opts: RequestOptions & { dispatcher: Dispatcher }): Promise<Dispatcher.ResponseData>;
}

type ApiRequest = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

let parts: UndiciFetchParts | undefined;

export function undiciFetchParts(): UndiciFetchParts {
  return (parts ??= loadParts());
}

function loadParts(): UndiciFetchParts {
  try {
    const AgentClass = lazyModule<typeof Agent>('undici/lib/dispatcher/agent.js')();
    const buildConnector = lazyModule<typeof BuildConnector>('undici/lib/core/connect.js')();
    const apiRequest = lazyModule<ApiRequest>('undici/lib/api/api-request.js')();
    if (typeof AgentClass !== 'function' || typeof buildConnector !== 'function' || typeof apiRequest !== 'function') throw new Error('unexpected undici layout');
    return { Agent: AgentClass, buildConnector, request: (url, opts) => apiRequest.call(opts.dispatcher, withTarget(url, opts)) };
  } catch {
    const undici = undiciModule();
    return { Agent: undici.Agent, buildConnector: undici.buildConnector, request: (url, opts) => undici.request(url, opts) };
  }
}

/** What undici's `request(url, opts)` hands its dispatcher: origin, path with query, method. */
function withTarget(url: URL, opts: RequestOptions): Dispatcher.RequestOptions {
  return { ...opts, origin: url.origin, path: url.search ? `${url.pathname}${url.search}` : url.pathname, method: opts.method ?? 'GET' };
}

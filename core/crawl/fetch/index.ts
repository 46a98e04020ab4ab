/** The fetch stage and its parts. */
export { fetch, type FetchArgs, type FetchParseInfo } from './fetcher.js';
export { FetchItemQueues } from './fetch-item-queues.js';
export { FetchItemQueue } from './fetch-item-queue.js';
export { createFetchItem, queueIdOf, parseQueueMode, type FetchItem, type QueueMode } from './fetch-item.js';
export { fetchStatusFor, statusCounterName, formatProtocolStatus } from './status-mapping.js';

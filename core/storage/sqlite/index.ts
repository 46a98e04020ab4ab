export { SqliteStorageEngine, type SqliteEngineOptions } from './sqlite-engine.js';
export { SqliteCrawlDb } from './sqlite-crawldb.js';
export { SqliteLinkDb } from './sqlite-linkdb.js';
export { openSqliteHostDb } from './sqlite-hostdb.js';
export { SqliteSegment, SUCCESS_FILE } from './sqlite-segment.js';
export { formatSegmentName, claimSegmentDir, SEGMENT_NAME } from './segment-name.js';
export { LOCK_FILE, readLock, type LockInfo } from './writer-lock.js';

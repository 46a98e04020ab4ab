export { PostgresStorageEngine, type PostgresEngineOptions } from './postgres-engine.js';
export type { SegmentRecordStore, PartitionKey, StoredRecord } from './record-store.js';

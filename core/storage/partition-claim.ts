/** What every engine's fetch-partition queue shares: who a worker is, and the error a superseded claim gets. */
import os from 'node:os';
import { NutchError } from '../errors.js';
import type { PartitionClaim, PartitionState } from './interfaces.js';

/** A partition's row in every engine's queue table (each adds its lease column). */
export interface PartitionRow {
  partition: number;
  state: PartitionState;
  worker: string | null;
  attempts: number;
  released: number;
  reason: string | null;
}

/** A worker id that names the machine and process: `host:pid:random`. */
export function workerId(): string {
  return `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

export function leaseLost(claim: PartitionClaim, where: string): NutchError {
  return new NutchError(
    'NUTCH_LEASE_LOST',
    `Partition ${claim.partition} of ${where} was taken over by another worker (attempt ${claim.attempt} is no longer current); this worker's writes to it are refused.`,
    { partition: claim.partition, attempt: claim.attempt, worker: claim.worker, segment: where },
  );
}

/** What every engine's fetch-partition queue shares: who a worker is, and the error a superseded claim gets. */
import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import { NutchError } from '../errors.js';
import { processRuns } from './process-runs.js';
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

/**
 * How a claim of row `r` by `worker` counts against fetcher.partition.max.attempts, the same on every
 * engine: every claim takes a new attempt (the fencing token only grows), but a claim counts only when
 * it follows another worker's or a first one. A polite release is not counted (`released`), and neither
 * is a worker's own expired claim when that same worker claims the partition again: nobody else took
 * it in between, so its lease merely ran out (a renewal late on a starved machine, a write that stood
 * idle too long), which is no failure of the partition. `released` is the row's new value.
 */
export function claimCount(r: PartitionRow, worker: string, maxAttempts: number): { released: number; exhausted: boolean } {
  const released = r.released + (r.state === 'running' && r.worker === worker ? 1 : 0);
  return { released, exhausted: r.attempts - released >= maxAttempts };
}

/** The reason a partition claimed too often is marked failed. */
export function exhaustedReason(r: PartitionRow, maxAttempts: number): string {
  return `claimed ${r.attempts - r.released} times without finishing (fetcher.partition.max.attempts=${maxAttempts}); last worker ${r.worker ?? '-'}`;
}

/**
 * A worker id that names the machine and process: `host:pid:machine.random`. `machine` says which
 * process table the pid belongs to (see machineKey), so a host name two machines share cannot make one
 * take the other's live worker for gone.
 */
export function workerId(): string {
  return `${os.hostname()}:${process.pid}:${machineKey()}.${Math.random().toString(36).slice(2, 8)}`;
}

let machine: string | undefined;

/**
 * Eight hex digits naming this process table: the kernel's boot id and this process's pid namespace
 * (containers given one host name, clones of one VM image). Where /proc does not say, the host name
 * and the start time of the OS (os.uptime) stand in.
 */
export function machineKey(): string {
  if (machine) return machine;
  let identity: string;
  try {
    identity = `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()} ${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    identity = `${os.hostname()} ${Math.round(Date.now() / 1000 - os.uptime())}`;
  }
  return (machine = createHash('sha256').update(identity).digest('hex').slice(0, 8));
}

/**
 * True when a worker id names a process of this process table (same host name and machineKey) that no
 * longer runs (killed with -9, crashed, stopped at once by a second signal): its claims are taken over at
 * once instead of after their lease, as a writer lock whose process is gone on this host is broken
 * (DESIGN §5). A worker of another machine, an id not made by workerId(), or a process that still runs
 * (frozen too) keeps its claim until the lease ends: a wrong "gone" would put two workers on one host's
 * queue, a wrong "running" only costs the wait.
 */
export function workerGone(worker: string | null): boolean {
  if (!worker) return false;
  const parts = worker.split(':');
  if (parts.length < 3) return false;
  const pid = Number(parts[parts.length - 2]);
  const host = parts.slice(0, -2).join(':');
  const sameTable = host === os.hostname() && parts[parts.length - 1]!.startsWith(`${machineKey()}.`);
  return sameTable && Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processRuns(pid);
}

export function leaseLost(claim: PartitionClaim, where: string): NutchError {
  return new NutchError(
    'NUTCH_LEASE_LOST',
    `Partition ${claim.partition} of ${where} was taken over by another worker (attempt ${claim.attempt} is no longer current); this worker's writes to it are refused.`,
    { partition: claim.partition, attempt: claim.attempt, worker: claim.worker, segment: where },
  );
}

/**
 * A fenced write whose transaction stood idle longer than the claim's lease (the process was frozen or
 * cut off mid-write): the database ended it, rolled back, so the partition's row locks do not keep
 * another worker from taking it over. The claim is treated as lost; the partition is claimed again
 * (by any worker) with a new attempt and resumed after its last committed batch.
 */
export function leaseIdledOut(claim: PartitionClaim, where: string, cause: unknown): NutchError {
  return new NutchError(
    'NUTCH_LEASE_LOST',
    `Partition ${claim.partition} of ${where}: this worker's write under attempt ${claim.attempt} stood idle longer than its lease allows (fetcher.partition.lease: ${claim.leaseMs} ms), so the database ended it and nothing of it was stored; this worker stops the partition.`,
    { partition: claim.partition, attempt: claim.attempt, worker: claim.worker, segment: where },
    { cause },
  );
}

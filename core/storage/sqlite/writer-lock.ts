/**
 * The writer lock, as Nutch's LockUtil: a `.locked` file inside the database directory, created
 * exclusively. nutch-ts writes PID, host and start time into it so that a lock left by a process
 * that is gone (same host, PID no longer alive) can be broken with a warning instead of needing a
 * manual delete. `force` takes the lock whatever it holds, as Nutch's -force.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NutchError } from '../../errors.js';
import { makeDirectory } from './make-directory.js';
import { diskError, isDiskError } from './disk-error.js';
import { processRuns } from '../process-runs.js';

export const LOCK_FILE = '.locked';

export interface LockInfo {
  pid: number;
  host: string;
  started: string;
}

export interface WriterLock {
  readonly file: string;
  release(): void;
}

export type LockWarn = (msg: string, fields?: Record<string, unknown>) => void;

export function readLock(file: string): LockInfo | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const info = JSON.parse(text) as Partial<LockInfo>;
    if (typeof info.pid === 'number' && typeof info.host === 'string') return { pid: info.pid, host: info.host, started: String(info.started ?? '') };
  } catch { /* a Nutch-style empty lock file, or junk */ }
  return null;
}

/** True when the lock names a process on this host that no longer exists. */
export function isStale(info: LockInfo | null): boolean {
  return info !== null && info.host === os.hostname() && !processRuns(info.pid);
}

export function acquireLock(dir: string, opts: { force?: boolean; warn?: LockWarn } = {}): WriterLock {
  makeDirectory(dir);
  const file = path.join(dir, LOCK_FILE);
  const info: LockInfo = { pid: process.pid, host: os.hostname(), started: new Date().toISOString() };
  const body = JSON.stringify(info) + '\n';
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, body, { flag: 'wx' });
      return lockHandle(file, body);
    } catch (err) {
      if (isDiskError(err)) {
        // wx created the file before the write failed: an empty lock of ours would block every later run
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') fs.rmSync(file, { force: true });
        throw diskError(file, err);
      }
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const held = readLock(file);
    if (opts.force) {
      opts.warn?.(`Forcing lock on ${dir} (held by ${describe(held)})`, { file });
    } else if (isStale(held)) {
      opts.warn?.(`Breaking stale lock ${file}: process ${held!.pid} on ${held!.host} (started ${held!.started}) is gone`, { file });
    } else {
      throw new NutchError(
        'NUTCH_STORAGE_LOCKED',
        `${dir} is locked by ${describe(held)} (${file}). Another stage is writing it; wait for it, or if no process is using it remove ${file} or pass -force.`,
        { file, holder: held },
      );
    }
    fs.rmSync(file, { force: true });
  }
  throw new NutchError('NUTCH_STORAGE_LOCKED', `${dir} is locked (${file}): another writer took the lock while it was being broken.`, { file });
}

function describe(info: LockInfo | null): string {
  return info ? `process ${info.pid} on ${info.host} since ${info.started}` : 'an unknown process';
}

function lockHandle(file: string, body: string): WriterLock {
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      // Only remove the lock if it is still ours (a -force from another writer may have replaced it).
      try {
        if (fs.readFileSync(file, 'utf8') === body) fs.rmSync(file, { force: true });
      } catch { /* already gone */ }
    },
  };
}

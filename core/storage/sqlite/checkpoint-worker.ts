/**
 * WAL checkpoints off the main thread. An update session commits one large transaction; copying
 * its WAL back into the database file (a checkpoint) takes as long as writing it, so doing it on
 * the main thread (SQLite's auto-checkpoint at COMMIT, or at the close of the last connection)
 * would block the event loop for hundreds of milliseconds. Store connections therefore run with
 * wal_autocheckpoint off, and after a commit a worker thread opens the file and checkpoints it
 * (TRUNCATE: the WAL shrinks back to zero). If the worker fails, the WAL simply stays until the
 * next checkpoint; readers are unaffected either way.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const driverPath = require.resolve('better-sqlite3');

const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driverPath);
let result;
try {
  const db = new Database(workerData.file, { fileMustExist: true });
  db.pragma('busy_timeout = 2000');
  result = { ok: true, rows: db.pragma('wal_checkpoint(TRUNCATE)') };
  db.close();
} catch (err) {
  result = { ok: false, error: String(err && err.message || err) };
}
parentPort.postMessage(result);
`;

export function checkpointInWorker(file: string): Promise<{ ok: boolean; error?: string }> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: { ok: boolean; error?: string }) => {
      if (!settled) { settled = true; resolve(r); }
    };
    try {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driverPath } });
      worker.once('message', (r: { ok: boolean; error?: string }) => done(r));
      worker.once('error', (err) => done({ ok: false, error: err.message }));
      worker.once('exit', () => done({ ok: false, error: 'checkpoint worker exited early' }));
    } catch (err) {
      done({ ok: false, error: (err as Error).message });
    }
  });
}

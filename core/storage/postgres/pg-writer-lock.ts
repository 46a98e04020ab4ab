/**
 * The writer lock of a CrawlDb or LinkDb on PostgreSQL: a session-level advisory lock (the schema's
 * lock class, the store's id) held by the update session's own connection. It lives exactly as long
 * as that connection: a holder that dies, is killed or loses its machine loses its connection (TCP
 * keepalive for a vanished machine) and the lock goes away by itself — no stale lock to break.
 * The holder is named from pg_stat_activity (application_name is `nutch-ts host:pid`). `force`, as
 * Nutch's -force, terminates the holder's connection (rolling back its session) and takes the lock.
 */
import type pg from 'pg';
import { NutchError } from '../../errors.js';
import type { PgDatabase } from './pg-database.js';

interface Holder {
  pid: number;
  application_name: string | null;
  client_addr: string | null;
  backend_start: Date | null;
}

/** How long a forced lock waits for the terminated holder's backend to let go. */
const FORCE_WAIT_MS = 10_000;

async function holderOf(client: pg.PoolClient, cls: number, id: number): Promise<Holder | null> {
  const r = await client.query<Holder>(
    `SELECT a.pid, a.application_name, host(a.client_addr) AS client_addr, a.backend_start
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.classid = ($1::int)::oid AND l.objid = ($2::int)::oid AND l.objsubid = 2`,
    [cls, id]);
  return r.rows[0] ?? null;
}

function describe(h: Holder | null): string {
  if (!h) return 'another writer';
  const who = h.application_name?.trim() || 'a client that is not nutch-ts';
  const from = h.client_addr ? ` from ${h.client_addr}` : '';
  const since = h.backend_start ? ` since ${h.backend_start.toISOString()}` : '';
  return `${who} (PostgreSQL backend ${h.pid}${from}${since})`;
}

/** Takes the lock on the session's connection, or throws NUTCH_STORAGE_LOCKED naming the holder. */
export async function acquireAdvisoryLock(db: PgDatabase, client: pg.PoolClient, storeId: number, store: string, force: boolean): Promise<void> {
  const cls = db.lockClass;
  const got = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [cls, storeId]);
  if (got.rows[0]!.ok) return;
  const holder = await holderOf(client, cls, storeId);
  if (!force) {
    throw new NutchError(
      'NUTCH_STORAGE_LOCKED',
      `${store} in ${db.target.redacted} is locked by ${describe(holder)}. Another stage is writing it; wait for it, or pass -force to end that writer's session.`,
      { store, storageUrl: db.target.redacted, holder: holder ? { pid: holder.pid, name: holder.application_name } : null },
    );
  }
  db.warn?.(`Forcing lock on ${store}: terminating the session of ${describe(holder)}`, { store });
  if (holder) await client.query('SELECT pg_terminate_backend($1)', [holder.pid]);
  await client.query(`SET lock_timeout = ${FORCE_WAIT_MS}`);
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [cls, storeId]);
  } catch (err) {
    throw new NutchError('NUTCH_STORAGE_LOCKED', `${store} in ${db.target.redacted}: -force could not take the lock from ${describe(holder)} (${(err as Error).message}).`, { store }, { cause: err });
  } finally {
    await client.query('RESET lock_timeout');
  }
}

export async function releaseAdvisoryLock(db: PgDatabase, client: pg.PoolClient, storeId: number): Promise<void> {
  await client.query('SELECT pg_advisory_unlock($1, $2)', [db.lockClass, storeId]);
}

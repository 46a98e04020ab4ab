/**
 * Driver errors turned into catalogue errors that name the culprit: the database (by its redacted
 * URL) and the store being read or written. Anything else passes through unchanged.
 */
import { NutchError, isNutchError } from '../../errors.js';

/** Where a failing call was: the redacted storage.url and, when known, the store (`crawl/crawldb`). */
export interface PgWhere {
  url: string;
  store?: string;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EAI_AGAIN', '3D000']);
const AUTH = new Set(['28P01', '28000']);
/** admin_shutdown, crash_shutdown, cannot_connect_now, connection exceptions, broken sockets. */
const LOST = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', '08P01', 'ECONNRESET', 'EPIPE']);
const LOST_MESSAGE = /Connection terminated|connection error|Client was closed|not queryable|terminating connection/i;

function where(w: PgWhere): string {
  return w.store ? `${w.store} in ${w.url}` : w.url;
}

export function translatePgError(err: unknown, w: PgWhere): unknown {
  if (isNutchError(err)) return err;
  const e = err as { code?: string; message?: string } | null;
  const code = e?.code ?? '';
  const msg = e?.message ?? String(err);
  const details = { storageUrl: w.url, ...(w.store ? { store: w.store } : {}) };
  if (UNREACHABLE.has(code) || /timeout expired|connect ECONNREFUSED/i.test(msg)) {
    return new NutchError(
      'NUTCH_STORAGE_UNREACHABLE',
      `Cannot reach the storage database ${w.url} (${msg}). Check storage.url and that the PostgreSQL server is running and accepts connections from this machine.`,
      details, { cause: err });
  }
  if (AUTH.has(code)) {
    return new NutchError(
      'NUTCH_STORAGE_AUTH_FAILED',
      `The storage database ${w.url} refused the login (${msg}). Fix the user or password in storage.url (or ~/.pgpass, PGPASSWORD).`,
      details, { cause: err });
  }
  if (LOST.has(code) || LOST_MESSAGE.test(msg)) {
    return new NutchError(
      'NUTCH_STORAGE_CONNECTION_LOST',
      `Lost the connection to the storage database while working on ${where(w)} (${msg}). The uncommitted session was rolled back; what was committed before is intact. Re-run the stage when the database is back.`,
      details, { cause: err });
  }
  return err;
}

/** Runs fn and rethrows its failure translated. */
export async function pgGuard<T>(w: PgWhere, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw translatePgError(err, w);
  }
}

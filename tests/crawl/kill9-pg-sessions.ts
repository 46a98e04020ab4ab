/**
 * The sessions of a PostgreSQL cluster, one line each (backend pid, application — `nutch-ts host:pid`
 * for nutch-ts — state, what it waits on, for how long, its query): what the kill -9 harness adds to
 * the message of a step it gave up on, so a wait on a lock or a session left open names itself.
 */
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

export async function describeSessions(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, statement_timeout: 5000 });
  try {
    await c.connect();
    const r = await c.query<{ pid: number; app: string; state: string | null; wait: string | null; secs: number | null; query: string }>(
      `SELECT pid, application_name AS app, state, wait_event_type || ':' || wait_event AS wait,
              round(extract(epoch FROM now() - state_change)) AS secs, left(query, 160) AS query
         FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() ORDER BY pid`);
    const lines = r.rows.map((s) => `  backend ${s.pid} [${s.app || '-'}] ${s.state ?? '?'}${s.wait ? ` waiting on ${s.wait}` : ''} for ${s.secs ?? '?'} s: ${s.query.replace(/\s+/g, ' ')}`);
    return `\nPostgreSQL sessions (${r.rows.length}):\n${lines.join('\n') || '  none'}`;
  } catch (err) {
    return `\nPostgreSQL sessions: could not be listed (${(err as Error).message})`;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Waits until no session of process `pid` (application_name `nutch-ts <host>:<pid>`) is left on the
 * cluster. PostgreSQL ends a killed client's session only when its backend notices the closed socket —
 * at once when the backend was idle, only after its statement when it was running one (a lock wait
 * included) — and until then the session's locks and uncommitted rows stay: reading the stores before
 * that would read them mid-rollback, or wait on its locks. Fails after `ms`, listing the sessions.
 */
export async function waitForSessionsGone(url: string, pid: number, ms: number, why = `the sessions of the killed process ${pid} to end`): Promise<void> {
  const app = `nutch-ts ${hostname()}:${pid}`.slice(0, 63);
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, statement_timeout: 5000 });
  await c.connect();
  try {
    for (const deadline = Date.now() + ms; ;) {
      const r = await c.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [app]);
      if (Number(r.rows[0]!.n) === 0) return;
      if (Date.now() > deadline) throw new Error(`gave up after ${Math.round(ms / 1000)} s waiting for ${why}${await describeSessions(url)}`);
      await sleep(50);
    }
  } finally {
    await c.end().catch(() => undefined);
  }
}

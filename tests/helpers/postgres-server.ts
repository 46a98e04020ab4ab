/**
 * A throwaway PostgreSQL for tests: initdb into a temp dir as a non-root OS user (postgres, else
 * nobody), `postgres` started directly on a free 127.0.0.1 port (so we hold its PID), stopped by PID
 * (SIGINT, fast shutdown) when the test ends. Null when initdb is not installed. Small on purpose
 * (several engineers share 2 cores): 16 MB shared buffers, no fsync. With `password`, the cluster
 * asks for it (scram-sha-256), so a wrong one can be tried. `settings` adds or overrides server settings
 * (the benches give it the memory a real server has).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

export interface PgServer {
  url: string;
  port: number;
  /** The postmaster's PID (changes on restart). */
  readonly pid: number;
  /** Stops the server by PID (fast shutdown), keeping its data. */
  halt(): Promise<void>;
  /** Starts it again on the same data and port after halt() (no-op while it runs). */
  restart(): Promise<void>;
  /** Stops it and removes its data. */
  stop(): Promise<void>;
}

export function findPgBin(name: string): string | null {
  // Debian and Ubuntu keep the server binaries off the PATH, under /usr/lib/postgresql/<major>/bin (newest first)
  const debian = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)).map((v) => `/usr/lib/postgresql/${v}/bin/${name}`) : [];
  const candidates = [...(process.env.PATH ?? '').split(':').map((d) => join(d, name)), ...debian, `/usr/local/pgsql/bin/${name}`];
  return candidates.find((p) => existsSync(p)) ?? null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function osUser(): { uid: number; gid: number } | null {
  if (userInfo().uid !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    const r = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const g = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (r.status === 0 && g.status === 0) return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
  }
  return null;
}

export async function startPostgres(opts: { password?: string; settings?: Record<string, string> } = {}): Promise<PgServer | null> {
  const initdb = findPgBin('initdb');
  const postgres = findPgBin('postgres');
  if (!initdb || !postgres) return null;
  const dir = mkdtempSync(join(tmpdir(), 'nutch-pg-'));
  const user = osUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const auth = ['-A', 'trust'];
  if (opts.password !== undefined) {
    const pwfile = join(dir, 'pwfile');
    writeFileSync(pwfile, opts.password + '\n');
    if (user) chownSync(pwfile, user.uid, user.gid);
    auth.splice(0, 2, '-A', 'scram-sha-256', `--pwfile=${pwfile}`);
  }
  const init = spawnSync(initdb, ['-D', data, ...auth, '-U', 'nutch', '-E', 'UTF8', '--no-sync', '--locale=C'], { encoding: 'utf8', ...(user ?? {}) });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const url = `postgres://nutch${opts.password !== undefined ? ':' + encodeURIComponent(opts.password) : ''}@127.0.0.1:${port}/postgres`;
  const settings = Object.entries(opts.settings ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  let child = await launch(postgres, data, dir, port, url, user, settings);
  const halt = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    process.kill(child.pid!, 'SIGINT');
    await Promise.race([exited, sleep(3000)]);
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
  };
  return {
    url,
    port,
    get pid() { return child.pid!; },
    halt,
    async restart() {
      if (child.exitCode === null && child.signalCode === null) return;
      child = await launch(postgres, data, dir, port, url, user, settings);
    },
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts `postgres` on the data dir and waits until it accepts connections. */
async function launch(postgres: string, data: string, dir: string, port: number, url: string, user: { uid: number; gid: number } | null, settings: string[]): Promise<ChildProcess> {
  const child: ChildProcess = spawn(postgres, ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'synchronous_commit=off', '-c', 'shared_buffers=16MB', '-c', 'max_connections=60', ...settings], { stdio: 'ignore', ...(user ?? {}) });
  for (let i = 0; ; i++) {
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      await c.end();
      return child;
    } catch (err) {
      await c.end().catch(() => undefined);
      if (i > 250 || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`PostgreSQL did not start on port ${port}: ${(err as Error).message}`);
      }
      await sleep(20);
    }
  }
}

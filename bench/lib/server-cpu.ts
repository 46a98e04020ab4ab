/**
 * CPU seconds a local PostgreSQL server has used: the postmaster's own and its reaped children's
 * (exited backends) plus every live child's (backends, checkpointer, walwriter…), read from /proc.
 * The benches on PostgreSQL report it beside the node process's CPU, since on a shared 2-core machine
 * the wall time mostly measures the load; null where /proc is not there or the PID is not known
 * (BENCH_PG_PID, set by postgres.bench.ts for the server it starts).
 */
import fs from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function statTimes(pid: number): number[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // fields after "(comm)": state is field 3; utime, stime, cutime, cstime are fields 14-17
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [Number(f[11]), Number(f[12]), Number(f[13]), Number(f[14])];
  } catch {
    return null;
  }
}

export function serverCpuSeconds(pid = Number(process.env.BENCH_PG_PID)): number | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const own = statTimes(pid);
  if (!own) return null;
  let ticks = own[0]! + own[1]! + own[2]! + own[3]!;
  let children: string[] = [];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim().split(/\s+/).filter(Boolean);
  } catch {
    return null;
  }
  for (const c of children) {
    const t = statTimes(Number(c));
    if (t) ticks += t[0]! + t[1]!;
  }
  return ticks / TICKS_PER_SECOND;
}

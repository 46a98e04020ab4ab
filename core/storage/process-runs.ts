/**
 * Whether a process of this machine runs: the one test behind breaking a dead writer's lock and taking
 * over a dead fetch worker's partitions at once. Signal 0 checks without sending; EPERM means it runs
 * as another user.
 */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

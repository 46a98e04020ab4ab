/**
 * BENCH_PROFILE=<stage>: a CPU profile of one stage of a bench alone (inspector, this thread), written
 * to `<stage>.cpuprofile` in the working directory. Used by the crawldb and updatedb benches.
 */
import fs from 'node:fs';
import type { Session } from 'node:inspector/promises';

/** A started profiler session when BENCH_PROFILE names `stage`, else null. */
export async function startStageProfile(stage: string): Promise<Session | null> {
  if (process.env.BENCH_PROFILE !== stage) return null;
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return session;
}

/** Stops `session` (when there is one) and writes `<stage>.cpuprofile`. */
export async function stopStageProfile(session: Session | null, stage: string): Promise<void> {
  if (!session) return;
  const { profile } = await session.post('Profiler.stop');
  fs.writeFileSync(`${stage}.cpuprofile`, JSON.stringify(profile));
  session.disconnect();
}

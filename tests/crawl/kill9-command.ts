/**
 * One `nutch` command of the kill -9 harness (kill9-stages-harness.ts) run with every wait bounded: as a
 * child process, SIGKILLed at a point of its work counted from its `<stage>: started` line, or to its
 * end in the test's own process. A step that cannot end fails naming what it waited for, with the
 * directory's diagnosis (the child's stderr, the database's sessions).
 */
import { runNutch, startNutch, type CliResult } from '../helpers/cli.js';
import { within } from '../helpers/within.js';

/** Where a command runs, and what the chain adds to a message or checks after an in-process step. */
export interface CommandDir {
  cwd: string;
  /** What the chain knows of a step given up on (e.g. the database's sessions). */
  diagnose(): Promise<string>;
  afterInProcess(when: string): Promise<void>;
}

const STARTED = /^\S+ [a-z]+(?: \(round \d+\))?: started$/m;

/**
 * How long each step may take before the chain fails naming it (a stuck step, not a slow one: the
 * windows measured at load 8-25 were 0.4-36 s). Every wait of the harness has one of these bounds.
 */
export const WAIT_MS = {
  /** A child's `<stage>: started` line (Node start-up and plugin loading on a loaded machine). */
  started: 120_000,
  /** A command run to its end: uninterrupted, or a re-run (which may wait out a killed fetch's lease). */
  command: 300_000,
  /** A SIGKILLed child's exit and the close of its pipes. */
  killed: 30_000,
  /** A reference command run in the test's own process. */
  inProcess: 300_000,
  /** Reading every store of a directory. */
  snapshot: 120_000,
};

/**
 * Runs a command as a child; with `killAfterMs`, SIGKILLs it that long after its first `started` line.
 * Every listener is attached before the first await (an exit is never missed), every wait is bounded
 * (WAIT_MS), and a child given up on is killed, so no step can hold the chain without a message.
 */
export async function runChild(argv: string[], dir: CommandDir, killAfterMs?: number): Promise<{ result: CliResult; workMs: number; exitedFirst: boolean; pid: number }> {
  const cwd = dir.cwd;
  const { child, result } = startNutch(argv, { cwd, env: { NUTCH_CONF_DIR: cwd } });
  const what = `\`nutch ${argv[0]}\` (pid ${child.pid ?? 'none'}) in ${cwd}`;
  let exited = false;
  let stderr = '';
  // resolves at the exit, or at a spawn failure (which emits 'error' and no 'exit')
  const gone = new Promise<void>((resolve) => {
    child.once('exit', () => { exited = true; resolve(); });
    child.once('error', () => { exited = true; resolve(); });
  });
  const started = new Promise<number | null>((resolve) => {
    const onData = (c: string) => {
      stderr += c;
      if (STARTED.test(stderr)) {
        child.stderr.off('data', onData);
        resolve(performance.now());
      }
    };
    child.stderr.on('data', onData);
    void gone.then(() => resolve(null));
  });
  // the child's own end, whatever happens to this function: a spawn error rejects `result`
  const ended = result.catch((err: Error) => ({ code: -1, stdout: '', stderr: `spawn failed: ${err.message}` }) satisfies CliResult);
  const giveUp = async () => {
    const state = exited ? `it had exited (code ${child.exitCode}, signal ${child.signalCode})` : 'it was still running and is now killed';
    if (!exited) child.kill('SIGKILL');
    return `${state}; stderr ends: ${stderr.slice(-1500)}${await dir.diagnose()}`;
  };
  const startedAt = await within(WAIT_MS.started, `the "started" line of ${what}`, started, giveUp);
  let exitedFirst = false;
  if (killAfterMs !== undefined && startedAt !== null) {
    // bounded by killAfterMs itself; an exit already seen ends it at once
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([gone, new Promise<void>((resolve) => (timer = setTimeout(resolve, killAfterMs)))]);
    clearTimeout(timer);
    exitedFirst = exited;
    if (!exited) child.kill('SIGKILL');
  } else if (killAfterMs !== undefined) exitedFirst = true;
  const r = await within(killAfterMs !== undefined && !exitedFirst ? WAIT_MS.killed : WAIT_MS.command, killAfterMs !== undefined && !exitedFirst ? `the exit of ${what}, SIGKILLed` : `the end of ${what}`, ended, giveUp);
  return { result: r, workMs: startedAt === null ? 0 : performance.now() - startedAt, exitedFirst, pid: child.pid ?? 0 };
}

/** Runs a command to its end in the test's own process (runNutch), bounded. */
export async function runInProcess(argv: string[], dir: CommandDir): Promise<{ result: CliResult; workMs: number }> {
  const t0 = performance.now();
  const what = `\`nutch ${argv.join(' ')}\` in this process (${dir.cwd})`;
  const result = await within(WAIT_MS.inProcess, what, runNutch(argv, { cwd: dir.cwd }), () => dir.diagnose());
  const workMs = performance.now() - t0;
  await dir.afterInProcess(what);
  return { result, workMs };
}

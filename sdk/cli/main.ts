#!/usr/bin/env node
/**
 * The `nutch` binary. The first SIGINT or SIGTERM (what Ctrl-C, `docker stop` and systemd send) is a
 * polite stop: the signal handed to the command is aborted, in-flight work finishes and is committed.
 * A second signal of either kind exits at once (130); every committed batch stays intact.
 */
import nodeModule from 'node:module';

// V8's compile cache (Node >= 22.1; under os.tmpdir(), NODE_DISABLE_COMPILE_CACHE=1 turns it off):
// later starts reuse the bytecode of the modules a command loads instead of compiling them again.
// Enabled before the rest is imported, so that it covers them; Node 20 has no such API. Node does
// not hand a cache enabled this way on to worker threads or child processes, the variable does
// (parse workers, fetch workers). The binary does this for itself; createNutch() leaves an app's alone.
const cache = (nodeModule as { enableCompileCache?: () => { directory?: string } }).enableCompileCache?.();
if (cache?.directory && !process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = cache.directory;
const { runCli } = await import('./run.js');
const { ExitCode } = await import('./command.js');

const controller = new AbortController();
let signals = 0;
const onSignal = (name: NodeJS.Signals) => {
  signals++;
  if (signals === 1) {
    const again = name === 'SIGINT' ? 'press Ctrl-C again' : `send ${name} again`;
    process.stderr.write(`Received ${name}: stopping politely (no new work starts; in-flight work finishes and what is done is committed); ${again} to stop at once.\n`);
    controller.abort();
  } else {
    process.stderr.write(`Received ${name}, a second stop signal: stopping at once (committed data is intact; re-run the command to resume).\n`);
    process.exit(ExitCode.INTERRUPTED);
  }
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
});

const code = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  signal: controller.signal,
});
process.exitCode = code;

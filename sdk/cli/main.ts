#!/usr/bin/env node
/** The `nutch` binary. First SIGINT: polite stop (signal aborted); second: immediate exit 130. */
import { runCli } from './run.js';

const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts++;
  if (interrupts === 1) {
    process.stderr.write('Stopping politely (in-flight work finishes, what is done is committed); press Ctrl-C again to stop at once.\n');
    controller.abort();
  } else {
    process.exit(130);
  }
});

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

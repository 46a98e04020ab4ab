/** A CLI command: Nutch's name, a usage line, and a run function returning the exit code. */
import type { Writable, Readable } from 'node:stream';

export const ExitCode = { OK: 0, NOTHING_TO_DO: 1, USAGE: 2, FAILURE: 3, INTERRUPTED: 130 } as const;

export interface CliIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Aborted on the first SIGINT or SIGTERM (polite stop). */
  signal: AbortSignal;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[], io: CliIO): Promise<number>;
}

/** Writes honouring back-pressure, so streaming commands never buffer a million lines. */
export function writeLine(out: Writable, line: string): Promise<void> | void {
  if (!out.write(line + '\n')) return new Promise((resolve) => out.once('drain', resolve));
}

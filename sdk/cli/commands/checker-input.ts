/**
 * Line input for the checkers: URLs from the command line, or streamed from stdin one line at a time.
 * A polite stop (first SIGINT/SIGTERM: `signal`) ends the input after the line being checked, so a
 * checker left reading a pipe under a process manager stops on the first signal.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

export async function* checkerLines(stdin: Readable, useStdin: boolean, urls: string[], signal?: AbortSignal): AsyncGenerator<string> {
  if (!useStdin) {
    for (const url of urls) {
      if (signal?.aborted) return;
      yield url;
    }
    return;
  }
  if (signal?.aborted) return;
  const rl = createInterface({ input: stdin, crlfDelay: Infinity });
  const stop = () => rl.close();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    for await (const line of rl) {
      if (signal?.aborted) return;
      yield line;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    rl.close();
  }
}

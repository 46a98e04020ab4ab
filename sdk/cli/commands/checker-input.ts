/** Line input for the checkers: URLs from the command line, or streamed from stdin one line at a time. */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

export async function* checkerLines(stdin: Readable, useStdin: boolean, urls: string[]): AsyncGenerator<string> {
  if (!useStdin) {
    yield* urls;
    return;
  }
  const rl = createInterface({ input: stdin, crlfDelay: Infinity });
  for await (const line of rl) yield line;
}

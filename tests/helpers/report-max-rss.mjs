// Preloaded into a child process (NODE_OPTIONS=--import=<this file's URL>): prints the child's own peak
// resident set size on exit, so a test can bound a real CLI run's memory without sampling from outside.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  try {
    writeSync(2, `\nmaxRSS=${process.resourceUsage().maxRSS * 1024}\n`);
  } catch {
    // stderr already closed: nothing to report
  }
});

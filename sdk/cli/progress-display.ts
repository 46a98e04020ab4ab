/**
 * Renders progress events: a one-line progress bar redrawn in place on a TTY, structured log lines
 * otherwise (CI, pipes). Stage ends always print a line with the stage's counters.
 */
import type { Writable } from 'node:stream';
import type { ProgressEvent } from '../../core/crawl/progress.js';

export function createProgressDisplay(out: Writable & { isTTY?: boolean; columns?: number }): (e: ProgressEvent) => void {
  const tty = !!out.isTTY;
  let lastDraw = 0;
  let barShown = false;
  const clear = () => {
    if (barShown) out.write('\r\x1b[2K');
    barShown = false;
  };
  return (e) => {
    switch (e.type) {
      case 'stage-start':
        clear();
        out.write(`${stamp()} ${e.stage}${e.round !== undefined ? ` (round ${e.round})` : ''}: started\n`);
        break;
      case 'stage-end': {
        clear();
        const counters = Object.entries(e.counters).filter(([, v]) => v !== 0).map(([k, v]) => `${k}=${v}`).join(' ');
        out.write(`${stamp()} ${e.stage}${e.round !== undefined ? ` (round ${e.round})` : ''}: done in ${(e.ms / 1000).toFixed(1)} s ${counters}\n`);
        break;
      }
      case 'progress': {
        const now = Date.now();
        if (now - lastDraw < (tty ? 100 : 5000)) return;
        lastDraw = now;
        if (tty) {
          const width = Math.max(10, Math.min(40, (out.columns ?? 80) - 40));
          const frac = e.total ? Math.min(1, e.done / e.total) : 0;
          const bar = e.total ? '#'.repeat(Math.round(frac * width)).padEnd(width, '.') : ''.padEnd(width, '?');
          out.write(`\r\x1b[2K${e.stage} [${bar}] ${e.done}${e.total ? `/${e.total}` : ''}`);
          barShown = true;
        } else {
          out.write(`${stamp()} ${e.stage}: ${e.done}${e.total ? `/${e.total}` : ''} done\n`);
        }
        break;
      }
      case 'error':
        clear();
        out.write(`${stamp()} ${e.stage}: error${e.code ? ` ${e.code}` : ''}${e.url ? ` ${e.url}` : ''}: ${e.message}\n`);
        break;
      case 'page':
      case 'skip':
        break;
    }
  };
}

function stamp(): string {
  return new Date().toISOString();
}

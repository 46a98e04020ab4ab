/**
 * Renders progress events for people. On a TTY, one line redrawn in place: done/total (%), a bar, the
 * rate and ETA, and for fetch the bytes, the status mix (ok, redirect, not found, gone, robots denied,
 * exceptions) and the busiest hosts. Off a TTY (CI, pipes, log files), the same figures as one
 * timestamped line every few seconds. Stage starts and ends always print a line (with the counters).
 */
import type { Writable } from 'node:stream';
import type { ProgressEvent, StageName } from '../../core/crawl/progress.js';
import { statusMix, STATUS_MIX_LABELS, type StatusMix } from '../status-mix.js';

export interface ProgressDisplayOptions {
  /** Off a TTY, the least time between two progress lines of a stage (default 5000 ms). */
  plainIntervalMs?: number;
}

interface StageRun {
  stage: StageName;
  started: number;
  /** Pages of each host fetched in this stage (fetch only), for the busiest hosts. */
  hosts: Map<string, number>;
  lastDraw: number;
}

export function createProgressDisplay(out: Writable & { isTTY?: boolean; columns?: number }, opts: ProgressDisplayOptions = {}): (e: ProgressEvent) => void {
  const tty = !!out.isTTY;
  const plainInterval = opts.plainIntervalMs ?? 5000;
  let barShown = false;
  const runs = new Map<StageName, StageRun>();
  const run = (stage: StageName) => {
    let r = runs.get(stage);
    if (!r) runs.set(stage, (r = { stage, started: Date.now(), hosts: new Map(), lastDraw: 0 }));
    return r;
  };
  const clear = () => {
    if (barShown) out.write('\r\x1b[2K');
    barShown = false;
  };
  return (e) => {
    switch (e.type) {
      case 'stage-start':
        clear();
        runs.set(e.stage, { stage: e.stage, started: Date.now(), hosts: new Map(), lastDraw: 0 });
        out.write(`${stamp()} ${e.stage}${e.round !== undefined ? ` (round ${e.round})` : ''}: started\n`);
        break;
      case 'stage-end': {
        clear();
        runs.delete(e.stage);
        const counters = Object.entries(e.counters).filter(([, v]) => v !== 0).map(([k, v]) => `${k}=${v}`).join(' ');
        out.write(`${stamp()} ${e.stage}${e.round !== undefined ? ` (round ${e.round})` : ''}: done in ${(e.ms / 1000).toFixed(1)} s ${counters}\n`);
        break;
      }
      case 'page':
        if (e.stage === 'fetch') {
          const host = hostOf(e.url);
          const hosts = run('fetch').hosts;
          if (host) hosts.set(host, (hosts.get(host) ?? 0) + 1);
        }
        break;
      case 'progress': {
        const r = run(e.stage);
        const now = Date.now();
        const last = e.total !== undefined && e.done >= e.total;
        if (now - r.lastDraw < (tty ? 100 : plainInterval) && !(tty && last)) return;
        r.lastDraw = now;
        const figures = progressFigures(e, r, now);
        if (tty) {
          const columns = out.columns && out.columns > 20 ? out.columns : 100;
          out.write(`\r\x1b[2K${ttyLine(e, figures, columns)}`);
          barShown = true;
        } else {
          out.write(`${stamp()} ${plainLine(e, figures)}\n`);
        }
        break;
      }
      case 'error':
        clear();
        out.write(`${stamp()} ${e.stage}: error${e.code ? ` ${e.code}` : ''}${e.url ? ` ${e.url}` : ''}: ${e.message}\n`);
        break;
      case 'skip':
        break;
    }
  };
}

export interface ProgressFigures {
  /** Percent done, when the total is known. */
  percent?: number;
  /** Items per second (pages for fetch). */
  rate: number;
  unit: string;
  /** Seconds left at this rate, when the total is known and the rate is not zero. */
  etaSeconds?: number;
  bytes?: number;
  /** Fetch's queues: active, queued items, in flight. */
  queues?: [number, number, number];
  mix?: StatusMix;
  busiest: [string, number][];
}

export function progressFigures(e: Extract<ProgressEvent, { type: 'progress' }>, r: StageRun, now: number): ProgressFigures {
  const c = e.counters ?? {};
  const elapsed = Math.max(0.001, (now - r.started) / 1000);
  // fetch reports its own pages/s of the last second; other stages their average since the start
  const rate = e.stage === 'fetch' && c.pages_per_second !== undefined ? c.pages_per_second : e.done / elapsed;
  const average = e.done / elapsed;
  const left = e.total !== undefined ? Math.max(0, e.total - e.done) : undefined;
  return {
    percent: e.total ? Math.min(100, (100 * e.done) / e.total) : e.total === 0 ? 100 : undefined,
    rate,
    unit: e.stage === 'fetch' ? 'pages/s' : '/s',
    // the average since the start is steadier than one second's count for an ETA
    etaSeconds: left !== undefined && average > 0 ? left / average : left === 0 ? 0 : undefined,
    bytes: e.stage === 'fetch' ? c.bytes_downloaded ?? 0 : undefined,
    queues: c.active_queues !== undefined ? [c.active_queues, c.queued ?? 0, c.in_flight ?? 0] : undefined,
    mix: e.stage === 'fetch' ? statusMix(c) : undefined,
    busiest: [...r.hosts].sort((a, b) => b[1] - a[1] || stringOrder(a[0], b[0])).slice(0, 3),
  };
}

function ttyLine(e: Extract<ProgressEvent, { type: 'progress' }>, f: ProgressFigures, columns: number): string {
  const width = Math.max(10, Math.min(30, columns - 80));
  const bar = f.percent !== undefined ? '#'.repeat(Math.round((f.percent / 100) * width)).padEnd(width, '.') : '?'.repeat(width);
  const parts = [
    `${e.stage} [${bar}] ${count(e.done)}${e.total !== undefined ? `/${count(e.total)}` : ''}${f.percent !== undefined ? ` ${f.percent.toFixed(0)}%` : ''}`,
    `${rateText(f.rate)} ${f.unit}`,
    ...(f.etaSeconds !== undefined ? [`ETA ${duration(f.etaSeconds)}`] : []),
    ...(f.bytes !== undefined ? [bytesText(f.bytes)] : []),
    ...(f.mix ? [mixText(f.mix, ' ')] : []),
    ...(f.queues ? [`queues ${f.queues[0]} active, ${f.queues[1]} queued, ${f.queues[2]} in flight`] : []),
    ...(f.busiest.length ? [`busiest ${f.busiest.map(([h, n]) => `${h} ${n}`).join(', ')}`] : []),
  ];
  return fit(parts.join(' | '), columns - 1);
}

function plainLine(e: Extract<ProgressEvent, { type: 'progress' }>, f: ProgressFigures): string {
  const parts = [
    `${e.stage}: ${e.done}${e.total !== undefined ? `/${e.total}` : ''} done${f.percent !== undefined ? ` (${f.percent.toFixed(0)}%)` : ''}`,
    `${rateText(f.rate)} ${f.unit}`,
    ...(f.etaSeconds !== undefined ? [`ETA ${duration(f.etaSeconds)}`] : []),
    ...(f.bytes !== undefined ? [bytesText(f.bytes)] : []),
    ...(f.mix ? [mixText(f.mix, '=')] : []),
    ...(f.queues ? [`queues active=${f.queues[0]} queued=${f.queues[1]} in_flight=${f.queues[2]}`] : []),
    ...(f.busiest.length ? [`busiest ${f.busiest.map(([h, n]) => `${h}=${n}`).join(' ')}`] : []),
  ];
  return parts.join(', ');
}

function mixText(mix: StatusMix, sep: string): string {
  return (Object.keys(STATUS_MIX_LABELS) as (keyof StatusMix)[]).map((k) => `${sep === '=' ? k : STATUS_MIX_LABELS[k]}${sep}${mix[k]}`).join(sep === '=' ? ' ' : ', ');
}

function fit(line: string, columns: number): string {
  return line.length <= columns ? line : line.slice(0, Math.max(0, columns - 1)) + '…';
}

// Neither localeCompare nor toLocaleString for what every fetch and crawl prints: the first call sets up
// ICU's collator or number format, ~0.01-0.02 CPU-s of a command's start (docs/performance.md).
function stringOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** 1,234,567 (an integer grouped as toLocaleString('en') does); other numbers through it. */
function count(n: number): string {
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : n.toLocaleString('en');
}

function rateText(r: number): string {
  return r >= 100 ? r.toFixed(0) : r.toFixed(1);
}

export function duration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return h ? `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}` : `${m}:${String(sec).padStart(2, '0')}`;
}

export function bytesText(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} kB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

function stamp(): string {
  return new Date().toISOString();
}

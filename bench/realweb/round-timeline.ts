/**
 * Where a nutch-ts crawl's wall time went, round by round: each stage's wall time (from the CLI's
 * `<stage> (round N): started` / `done in` lines) and, for each round's fetch, what nginx saw: the
 * requests per host and the slow tail — the time from the moment the second-to-last busy host made its
 * last request to the end of the fetch, when only one host (or none) was left to fetch from, so at
 * most `fetcher.threads.per.queue` requests could be in flight however many cores were free. Also the
 * gaps between stages when nginx saw nothing (every stage but fetch) — the time no page was fetched.
 */
import type { LogRecord } from './access-log.js';

export interface StageSpan { stage: string; round: number; start: number; end: number }

export interface RoundFetch {
  round: number;
  fetchMs: number;
  requests: number;
  /** Requests per host IP in this round's fetch. */
  perHost: Map<string, number>;
  /** ms from the second-to-last host's last request to the fetch's end (0 with a single host). */
  tailMs: number;
  /** The host left alone in the tail, and the requests it served there. */
  tailHost: string | null;
  tailRequests: number;
}

const LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z) (\w+) \(round (\d+)\): (started|done in ([\d.]+) s)/;

/** Stage spans from the CLI's plain progress lines (stderr or stdout, not a TTY). */
export function stageSpans(output: string): StageSpan[] {
  const open = new Map<string, number>();
  const spans: StageSpan[] = [];
  for (const line of output.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const t = Date.parse(m[1]!);
    const key = `${m[2]}:${m[3]}`;
    if (m[4] === 'started') open.set(key, t);
    else spans.push({ stage: m[2]!, round: Number(m[3]), start: open.get(key) ?? t - Number(m[5]) * 1000, end: t });
  }
  return spans;
}

export function roundFetches(spans: StageSpan[], records: LogRecord[]): RoundFetch[] {
  const out: RoundFetch[] = [];
  for (const f of spans.filter((s) => s.stage === 'fetch')) {
    // nginx logs a request's end in seconds with ms resolution; a few ms of slack on each side
    const inRound = records.filter((r) => r.t * 1000 >= f.start - 5 && r.t * 1000 <= f.end + 5);
    const perHost = new Map<string, number>();
    const last = new Map<string, number>();
    for (const r of inRound) {
      perHost.set(r.ip, (perHost.get(r.ip) ?? 0) + 1);
      last.set(r.ip, Math.max(last.get(r.ip) ?? 0, r.t * 1000));
    }
    const ends = [...last.entries()].sort((a, b) => a[1] - b[1]);
    const secondLast = ends.length >= 2 ? ends[ends.length - 2]![1] : f.start;
    const tailHost = ends.length ? ends[ends.length - 1]![0] : null;
    out.push({
      round: f.round,
      fetchMs: f.end - f.start,
      requests: inRound.length,
      perHost,
      tailMs: ends.length >= 2 ? Math.max(0, f.end - secondLast) : 0,
      tailHost,
      tailRequests: inRound.filter((r) => r.ip === tailHost && r.t * 1000 > secondLast).length,
    });
  }
  return out;
}

/** A markdown table: one row per round, wall ms per stage, then the fetch's tail. */
export function formatTimeline(spans: StageSpan[], fetches: RoundFetch[], hostName: (ip: string) => string): string {
  const stages = [...new Set(spans.map((s) => s.stage))];
  const rounds = [...new Set(spans.map((s) => s.round))].sort((a, b) => a - b);
  const lines = [
    `| round | ${stages.join(' | ')} | requests per host | fetch tail: 1 host left |`,
    `|---|${stages.map(() => '---|').join('')}---|---|`,
  ];
  for (const round of rounds) {
    // the round whose generate selected nothing ends the crawl: not a round
    if (!spans.some((s) => s.round === round && s.stage !== 'generate')) continue;
    const ms = (stage: string) => spans.filter((s) => s.round === round && s.stage === stage).reduce((a, s) => a + s.end - s.start, 0);
    const f = fetches.find((x) => x.round === round);
    const hosts = f ? [...f.perHost.entries()].sort((a, b) => b[1] - a[1]).map(([ip, n]) => `${hostName(ip)} ${n}`).join(', ') : '';
    const tail = f && f.tailHost ? `${(f.tailMs / 1000).toFixed(1)} s of ${(f.fetchMs / 1000).toFixed(1)} (${hostName(f.tailHost)}, ${f.tailRequests} requests)` : '';
    lines.push(`| ${round} | ${stages.map((s) => (ms(s) / 1000).toFixed(1)).join(' | ')} | ${hosts} | ${tail} |`);
  }
  return lines.join('\n');
}

/**
 * What one crawler did to the served sites, read from nginx's access log (the server's view, the same
 * for every crawler): requests, HTML pages (distinct 200 text/html URLs), robots.txt fetches, requests
 * to paths the site's robots.txt disallows, and politeness: the most requests in flight at once on one
 * host (a request spans [end - $request_time, end]; nginx logs milliseconds, so on loopback, where most
 * requests take under 1 ms, only bounds can be given) and the most connections open at once on one host
 * (a connection spans its first request's start to its last request's end).
 */
import { readFileSync } from 'node:fs';

export interface LogRecord { t: number; rt: number; ip: string; s: number; u: string; ct: string; b: number; ua: string; c: number }

export interface CrawlerTraffic {
  requests: number;
  bytes: number;
  pages: Set<string>;
  robotsFetches: number;
  violations: string[];
  notFound: number;
  /** At nginx's 1 ms resolution: lower bound (requests logged as taking 0 ms overlap nothing) and upper bound (touching requests overlap). */
  maxInFlightPerHost: [number, number];
  maxConnectionsPerHost: number;
}

export function readAccessLog(file: string): LogRecord[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogRecord);
}

/** Prefix rules of `User-agent: *` (all the bench writes), as a crawler that obeys robots.txt applies them. */
export function disallowed(rules: string[], path: string): boolean {
  return rules.some((r) => {
    const m = /^Disallow:\s*(\S+)/i.exec(r);
    return !!m && path.startsWith(m[1]!);
  });
}

export function traffic(records: LogRecord[], robotsByIp: Map<string, string[]>): CrawlerTraffic {
  const out: CrawlerTraffic = { requests: 0, bytes: 0, pages: new Set(), robotsFetches: 0, violations: [], notFound: 0, maxInFlightPerHost: [0, 0], maxConnectionsPerHost: 0 };
  const byHost = new Map<string, LogRecord[]>();
  for (const r of records) {
    out.requests++;
    out.bytes += r.b;
    if (r.s === 404) out.notFound++;
    const path = r.u.replace(/[?#].*$/, '');
    if (path === '/robots.txt') out.robotsFetches++;
    else if (disallowed(robotsByIp.get(r.ip) ?? [], decodeURIComponent(path))) out.violations.push(`${r.ip}${r.u}`);
    if (r.s === 200 && r.ct.startsWith('text/html')) out.pages.add(`${r.ip}${path}`);
    const list = byHost.get(r.ip) ?? [];
    list.push(r);
    byHost.set(r.ip, list);
  }
  for (const list of byHost.values()) {
    const requests = list.map((r) => ({ c: r.c, a: r.t - r.rt, b: r.t }));
    out.maxInFlightPerHost = [
      Math.max(out.maxInFlightPerHost[0], maxConnectionsBusy(requests.filter((r) => r.b > r.a), true), 1),
      Math.max(out.maxInFlightPerHost[1], maxConnectionsBusy(requests, false)),
    ];
    const spans = new Map<number, { c: number; a: number; b: number }>();
    for (const r of list) {
      const s = spans.get(r.c);
      spans.set(r.c, s ? { c: r.c, a: Math.min(s.a, r.t - r.rt), b: Math.max(s.b, r.t) } : { c: r.c, a: r.t - r.rt, b: r.t });
    }
    out.maxConnectionsPerHost = Math.max(out.maxConnectionsPerHost, maxConnectionsBusy([...spans.values()]));
  }
  return out;
}

/**
 * The most connections busy at one instant, a connection being busy during each of its intervals,
 * taken as open (touching intervals do not overlap) or closed (they do, and a request that took
 * "0.000 s" still counts). A connection serves one request at a time, so its back-to-back requests
 * count once.
 */
function maxConnectionsBusy(intervals: { c: number; a: number; b: number }[], open = false): number {
  const events = intervals.flatMap((i) => [{ t: i.a, d: 1, c: i.c }, { t: i.b, d: -1, c: i.c }]);
  events.sort((x, y) => x.t - y.t || (open ? x.d - y.d : y.d - x.d));
  const busy = new Map<number, number>();
  let max = 0;
  for (const e of events) {
    const n = (busy.get(e.c) ?? 0) + e.d;
    if (n > 0) busy.set(e.c, n);
    else busy.delete(e.c);
    max = Math.max(max, busy.size);
  }
  return max;
}

/**
 * readdb -stats: Nutch's CrawlDbReader statistics in one streaming pass — TOTAL urls, fetch
 * interval and fetch time extremes and averages, retry counts, score quantiles, min/avg/max score,
 * counts by status (and by host under each status with -sort). Scores are kept in sorted chunks
 * (8 bytes a URL) so the quantiles are exact without one long sort.
 */
import type { CrawlDbReader } from '../../storage/interfaces.js';
import { statusName } from '../../model/crawl-datum.js';
import { TimeSlice, yieldToEventLoop } from '../../storage/yield.js';
import { javaDate, javaFloat, secondsToDaysHMS } from './datum-format.js';

export const DEFAULT_QUANTILES = [0.01, 0.05, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 0.95, 0.99];

export interface CrawlDbStats {
  total: number;
  minInterval: number;
  maxInterval: number;
  avgInterval: number;
  minFetchTime: number;
  maxFetchTime: number;
  avgFetchTime: number;
  retries: Record<number, number>;
  minScore: number;
  maxScore: number;
  avgScore: number;
  nanScores: number;
  quantiles: [number, number][];
  status: Record<number, number>;
  /** With sort: status -> host -> count. */
  statusByHost?: Record<number, Record<string, number>>;
}

const CHUNK = 65_536;

export async function computeStats(db: CrawlDbReader, opts: { sort?: boolean; quantiles?: number[]; batchSize?: number } = {}): Promise<CrawlDbStats> {
  const s: CrawlDbStats = {
    total: 0, minInterval: Infinity, maxInterval: -Infinity, avgInterval: 0, minFetchTime: Infinity, maxFetchTime: -Infinity, avgFetchTime: 0,
    retries: {}, minScore: Infinity, maxScore: -Infinity, avgScore: 0, nanScores: 0, quantiles: [], status: {},
    ...(opts.sort ? { statusByHost: {} } : {}),
  };
  let sumInterval = 0, sumFetchMinutes = 0, sumScore = 0;
  const chunks: Float64Array[] = [];
  let current = new Float64Array(CHUNK);
  let fill = 0;
  const slice = new TimeSlice();
  for await (const { url, value: d } of db.scan({ batchSize: opts.batchSize })) {
    await slice.tick();
    s.total++;
    s.minInterval = Math.min(s.minInterval, d.fetchInterval);
    s.maxInterval = Math.max(s.maxInterval, d.fetchInterval);
    sumInterval += d.fetchInterval;
    s.minFetchTime = Math.min(s.minFetchTime, d.fetchTime);
    s.maxFetchTime = Math.max(s.maxFetchTime, d.fetchTime);
    sumFetchMinutes += Math.trunc(d.fetchTime / 60_000);
    s.retries[d.retries] = (s.retries[d.retries] ?? 0) + 1;
    s.status[d.status] = (s.status[d.status] ?? 0) + 1;
    if (Number.isNaN(d.score)) {
      s.nanScores++;
    } else {
      s.minScore = Math.min(s.minScore, d.score);
      s.maxScore = Math.max(s.maxScore, d.score);
      sumScore += d.score;
      current[fill++] = d.score;
      if (fill === CHUNK) {
        chunks.push(current.sort());
        current = new Float64Array(CHUNK);
        fill = 0;
      }
    }
    if (s.statusByHost) {
      let host = url;
      try { host = new URL(url).hostname; } catch { /* keep the raw key */ }
      const byHost = (s.statusByHost[d.status] ??= {});
      byHost[host] = (byHost[host] ?? 0) + 1;
    }
  }
  if (fill > 0) chunks.push(current.subarray(0, fill).sort());
  if (s.total > 0) {
    s.avgInterval = sumInterval / s.total;
    s.avgFetchTime = Math.trunc(sumFetchMinutes / s.total) * 60_000;
    s.avgScore = sumScore / s.total;
  }
  const n = chunks.reduce((a, c) => a + c.length, 0);
  if (n > 0) {
    for (const q of opts.quantiles ?? DEFAULT_QUANTILES) {
      s.quantiles.push([q, kthSmallest(chunks, Math.min(n - 1, Math.floor(q * n)))]);
      await yieldToEventLoop();
    }
  }
  return s;
}

function upperBound(a: Float64Array, v: number): number {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The k-th smallest (0-based) value over sorted chunks, by bisection on the value. */
function kthSmallest(chunks: Float64Array[], k: number): number {
  let lo = Infinity, hi = -Infinity;
  for (const c of chunks) { lo = Math.min(lo, c[0]); hi = Math.max(hi, c[c.length - 1]); }
  const atMost = (v: number) => chunks.reduce((sum, c) => sum + upperBound(c, v), 0);
  if (atMost(lo) > k) return lo;
  // invariant: atMost(lo) <= k < atMost(hi)
  for (let i = 0; i < 200 && lo < hi; i++) {
    const mid = lo + (hi - lo) / 2;
    if (mid === lo || mid === hi) break;
    if (atMost(mid) > k) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The lines Nutch logs for -stats, in its (sorted key) order. */
export function formatStats(crawlDb: string, s: CrawlDbStats): string[] {
  const out = [`Statistics for CrawlDb: ${crawlDb}`, `TOTAL urls:\t${s.total}`];
  if (s.total === 0) return out;
  out.push(
    `shortest fetch interval:\t${secondsToDaysHMS(s.minInterval)}`,
    `avg fetch interval:\t${secondsToDaysHMS(s.avgInterval)}`,
    `longest fetch interval:\t${secondsToDaysHMS(s.maxInterval)}`,
    `earliest fetch time:\t${javaDate(Math.trunc(s.minFetchTime / 60_000) * 60_000)}`,
    `avg of fetch times:\t${javaDate(s.avgFetchTime)}`,
    `latest fetch time:\t${javaDate(Math.trunc(s.maxFetchTime / 60_000) * 60_000)}`,
  );
  for (const r of Object.keys(s.retries).map(Number).sort(byText)) out.push(`retry ${r}:\t${s.retries[r]}`);
  if (s.nanScores) out.push(`score == NaN:\t${s.nanScores}`);
  for (const [q, v] of s.quantiles) out.push(`score quantile ${q}:\t${v}`);
  if (Number.isFinite(s.minScore)) {
    out.push(`min score:\t${javaFloat(s.minScore)}`, `avg score:\t${javaFloat(s.avgScore)}`, `max score:\t${javaFloat(s.maxScore)}`);
  }
  for (const code of Object.keys(s.status).map(Number).sort(byText)) {
    out.push(`status ${code} (${statusName(code)}):\t${s.status[code]}`);
    const hosts = s.statusByHost?.[code];
    if (hosts) for (const h of Object.keys(hosts).sort()) out.push(`   ${h} :\t${hosts[h]}`);
  }
  return out;
}

/** The stats as one JSON object (readdb -stats -json). */
export function statsToJson(crawlDb: string, s: CrawlDbStats): Record<string, unknown> {
  return {
    crawlDb,
    totalUrls: s.total,
    fetchInterval: s.total ? { min: s.minInterval, avg: s.avgInterval, max: s.maxInterval } : null,
    fetchTime: s.total ? { earliest: new Date(s.minFetchTime).toISOString(), avg: new Date(s.avgFetchTime).toISOString(), latest: new Date(s.maxFetchTime).toISOString() } : null,
    retries: s.retries,
    score: Number.isFinite(s.minScore) ? { min: s.minScore, avg: s.avgScore, max: s.maxScore, nan: s.nanScores, quantiles: Object.fromEntries(s.quantiles.map(([q, v]) => [String(q), v])) } : null,
    status: Object.fromEntries(Object.entries(s.status).map(([code, count]) => [statusName(Number(code)), { code: Number(code), count, ...(s.statusByHost?.[Number(code)] ? { hosts: s.statusByHost[Number(code)] } : {}) }])),
  };
}

/** Numbers in the order of their decimal text, as before, without starting ICU's collator (start-up cost). */
function byText(a: number, b: number): number {
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

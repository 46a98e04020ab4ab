/**
 * Per-host statistics over the fetched records of a host, as Nutch's UpdateHostDbReducer: for each
 * `hostdb.numeric.fields` value, min, max, average and the `hostdb.percentiles`; for each
 * `hostdb.string.fields` value, a count per distinct value. Written into the HostDatum metadata as
 * `min.<field>`, `max.<field>`, `avg.<field>`, `pct<P>.<field>` and `<field>.<value>`.
 *
 * The aggregate is mergeable, so updatehostdb folds the CrawlDb in a batch at a time (memory bounded
 * by the batch, never by the CrawlDb). Percentiles come from a bounded sketch: exact up to
 * SKETCH_SIZE values per host, then neighbouring values merge into weighted centroids (the idea of
 * the t-digest Nutch uses), so a host with millions of pages keeps a few kilobytes.
 */
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { HostMetadata } from '../../model/host-datum.js';

const SKETCH_SIZE = 256;

export interface NumericAggregate {
  n: number;
  sum: number;
  min: number;
  max: number;
  /** [value, weight] centroids sorted by value. */
  sketch: [number, number][];
}

export interface HostAggregate {
  numeric: Record<string, NumericAggregate>;
  strings: Record<string, Record<string, number>>;
}

export function emptyAggregate(): HostAggregate {
  return { numeric: {}, strings: {} };
}

/** CrawlDatum fields a numeric field may also name when the metadata lacks it (a nutch-ts addition). */
const DATUM_FIELDS: Record<string, (d: CrawlDatum) => number> = {
  score: (d) => d.score,
  fetchInterval: (d) => d.fetchInterval,
  retries: (d) => d.retries,
};

function compress(sketch: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < sketch.length; i += 2) {
    const a = sketch[i]!;
    const b = sketch[i + 1];
    if (!b) { out.push(a); break; }
    const w = a[1] + b[1];
    out.push([(a[0] * a[1] + b[0] * b[1]) / w, w]);
  }
  return out;
}

function addSketch(sketch: [number, number][], more: [number, number][]): [number, number][] {
  let merged = [...sketch, ...more].sort((x, y) => x[0] - y[0]);
  while (merged.length > SKETCH_SIZE) merged = compress(merged);
  return merged;
}

function addNumber(agg: HostAggregate, field: string, v: number): void {
  const a = agg.numeric[field];
  if (!a) {
    agg.numeric[field] = { n: 1, sum: v, min: v, max: v, sketch: [[v, 1]] };
    return;
  }
  a.n++;
  a.sum += v;
  if (v < a.min) a.min = v;
  if (v > a.max) a.max = v;
  a.sketch.push([v, 1]);
  if (a.sketch.length > 2 * SKETCH_SIZE) a.sketch = addSketch([], a.sketch);
}

/** Adds one fetched record (db_fetched or db_notmodified, as Nutch gathers statistics only for those). */
export function addRecord(agg: HostAggregate, datum: CrawlDatum, numericFields: readonly string[], stringFields: readonly string[]): void {
  for (const field of numericFields) {
    const raw = datum.metaData[field]?.[0];
    const v = raw !== undefined ? Number.parseFloat(raw) : DATUM_FIELDS[field]?.(datum);
    if (v !== undefined && Number.isFinite(v)) addNumber(agg, field, v);
  }
  for (const field of stringFields) {
    const raw = datum.metaData[field]?.[0];
    if (raw === undefined) continue;
    const counts = (agg.strings[field] ??= {});
    counts[raw] = (counts[raw] ?? 0) + 1;
  }
}

export function mergeAggregates(into: HostAggregate, from: HostAggregate): HostAggregate {
  for (const [field, b] of Object.entries(from.numeric)) {
    const a = into.numeric[field];
    if (!a) { into.numeric[field] = { ...b, sketch: [...b.sketch] }; continue; }
    a.n += b.n;
    a.sum += b.sum;
    a.min = Math.min(a.min, b.min);
    a.max = Math.max(a.max, b.max);
    a.sketch = addSketch(a.sketch, b.sketch);
  }
  for (const [field, counts] of Object.entries(from.strings)) {
    const target = (into.strings[field] ??= {});
    for (const [value, n] of Object.entries(counts)) target[value] = (target[value] ?? 0) + n;
  }
  return into;
}

/** The p-th percentile (0..100): the value at rank ceil(p/100 * n), as a nearest-rank percentile. */
export function percentile(sketch: readonly [number, number][], p: number): number {
  const total = sketch.reduce((s, c) => s + c[1], 0);
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const [value, weight] of sketch) {
    seen += weight;
    if (seen >= rank) return value;
  }
  return sketch[sketch.length - 1]![0];
}

/** Writes the statistics into `meta` (over older values of the same keys, as Nutch). */
export function writeStatistics(meta: HostMetadata, agg: HostAggregate, percentiles: readonly number[]): void {
  for (const [field, counts] of Object.entries(agg.strings)) {
    for (const [value, n] of Object.entries(counts)) meta[`${field}.${value}`] = n;
  }
  for (const [field, a] of Object.entries(agg.numeric)) {
    meta[`min.${field}`] = a.min;
    meta[`max.${field}`] = a.max;
    meta[`avg.${field}`] = a.sum / a.n;
    const sorted = [...a.sketch].sort((x, y) => x[0] - y[0]);
    for (const p of percentiles) meta[`pct${p}.${field}`] = percentile(sorted, p);
  }
}

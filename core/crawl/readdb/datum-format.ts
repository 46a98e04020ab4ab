/**
 * Text shapes of a CrawlDatum as Nutch prints them: CrawlDatum.toString() (readdb -url, -dump),
 * the CSV row of CrawlDatumCsvOutputFormat, Java's Date.toString(), Float.toString() and
 * TimingUtil.secondsToDaysHMS(); plus a JSON record for -format json.
 */
import { statusName, type CrawlDatum } from '../../model/crawl-datum.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** Java's Date.toString() in UTC: "Mon Nov 23 10:00:00 UTC 2026". */
export function javaDate(ms: number): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return String(ms);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

/** Java's Float.toString: the shortest decimal that reads back as the same float, always with a point. */
export function javaFloat(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity';
  const f = Math.fround(x);
  let digits = String(f);
  for (let p = 1; p <= 9; p++) {
    const candidate = Number(f.toPrecision(p));
    if (Math.fround(candidate) === f) { digits = String(candidate); break; }
  }
  const abs = Math.abs(f);
  if (f !== 0 && (abs >= 1e7 || abs < 1e-3)) {
    const [m, e] = Number(digits).toExponential().split('e');
    return `${m.includes('.') ? m : m + '.0'}E${Number(e)}`;
  }
  return digits.includes('.') || digits.includes('e') ? digits : digits + '.0';
}

export function secondsToDaysHMS(seconds: number): string {
  const s = Math.max(0, Math.trunc(seconds));
  const days = Math.trunc(s / 86400);
  const rest = s % 86400;
  return `${days} days, ${two(Math.trunc(rest / 3600))}:${two(Math.trunc((rest % 3600) / 60))}:${two(rest % 60)}`;
}

export function hex(bytes: Uint8Array | null): string {
  if (!bytes) return 'null';
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** CrawlDatum.toString(), as readdb -url and -dump print it. */
export function datumToString(d: CrawlDatum): string {
  const lines = [
    'Version: 7',
    `Status: ${d.status} (${statusName(d.status)})`,
    `Fetch time: ${javaDate(d.fetchTime)}`,
    `Modified time: ${javaDate(d.modifiedTime)}`,
    `Retries since fetch: ${d.retries}`,
    `Retry interval: ${Math.trunc(d.fetchInterval)} seconds (${javaFloat(d.fetchInterval / 86400)} days)`,
    `Score: ${javaFloat(d.score)}`,
    `Signature: ${hex(d.signature)}`,
    'Metadata: ',
  ];
  let meta = ' ';
  for (const [k, values] of Object.entries(d.metaData)) meta += `\t${k}=${values.join(',')}\n`;
  return lines.join('\n') + '\n' + meta + '\n';
}

export const CSV_HEADER = 'Url,Status code,Status name,Fetch Time,Modified Time,Retries since fetch,Retry interval seconds,Retry interval days,Score,Signature,Metadata';

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

export function datumToCsv(url: string, d: CrawlDatum): string {
  const meta = Object.entries(d.metaData).map(([k, v]) => `${k}:${v.join(',')}|||`).join('');
  return [
    quote(url), String(d.status), quote(statusName(d.status)), javaDate(d.fetchTime), javaDate(d.modifiedTime),
    String(d.retries), javaFloat(d.fetchInterval), javaFloat(d.fetchInterval / 86400), javaFloat(d.score), quote(hex(d.signature)), quote(meta),
  ].join(',');
}

export function datumToJson(url: string, d: CrawlDatum): string {
  return JSON.stringify({
    url,
    status: d.status,
    statusName: statusName(d.status),
    fetchTime: new Date(d.fetchTime).toISOString(),
    modifiedTime: new Date(d.modifiedTime).toISOString(),
    retriesSinceFetch: d.retries,
    retryIntervalSeconds: d.fetchInterval,
    score: d.score,
    signature: d.signature ? hex(d.signature) : null,
    metadata: d.metaData,
  });
}

/**
 * One seed line, as Nutch's InjectMapper reads it: the URL before the first TAB, then TAB-separated
 * key=value metadata. nutch.score, nutch.fetchInterval and nutch.fetchInterval.fixed set datum
 * fields; any other key is kept as metadata. A bad value is reported (file:line) and ignored.
 */
import { DatumMeta, type CrawlDatum } from '../../model/crawl-datum.js';
import { setMeta } from '../../model/metadata.js';

export const SeedMeta = {
  SCORE: 'nutch.score',
  FETCH_INTERVAL: 'nutch.fetchInterval',
  FIXED_FETCH_INTERVAL: 'nutch.fetchInterval.fixed',
} as const;

export interface ParsedSeedLine {
  url: string;
  metadata: string;
}

/** Null for blank lines and `#` comments. */
export function splitSeedLine(text: string): ParsedSeedLine | null {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a UTF-8 byte order mark on line 1
  const tab = text.indexOf('\t');
  const url = (tab < 0 ? text : text.slice(0, tab)).trim();
  if (url.length === 0 || url.startsWith('#')) return null;
  return { url, metadata: tab < 0 ? '' : text.slice(tab + 1).trim() };
}

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Why a URL string is malformed, or null when it parses as an absolute URL. */
export function malformedReason(url: string): string | null {
  if (CONTROL.test(url)) return 'contains control characters';
  if (/\s/.test(url)) return 'contains whitespace';
  try {
    const u = new URL(url);
    if (!/^[a-z][a-z0-9+.-]*:$/.test(u.protocol)) return `bad scheme ${u.protocol}`;
    if ((u.protocol === 'http:' || u.protocol === 'https:') && !u.hostname) return 'no host';
    return null;
  } catch {
    return 'not an absolute URL';
  }
}

const INT = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Applies the metadata to the datum; returns one message per bad field. */
export function applySeedMetadata(metadata: string, datum: CrawlDatum): string[] {
  const problems: string[] = [];
  if (!metadata) return problems;
  for (const field of metadata.split('\t')) {
    if (field.trim() === '') continue;
    const eq = field.indexOf('=');
    if (eq <= 0) {
      problems.push(`metadata '${field.slice(0, 80)}' is not key=value`);
      continue;
    }
    const name = field.slice(0, eq).trim();
    const value = field.slice(eq + 1).trim();
    if (name === SeedMeta.SCORE) {
      if (FLOAT.test(value)) datum.score = Number(value);
      else problems.push(`invalid number '${value.slice(0, 80)}' in metadata '${name}'`);
    } else if (name === SeedMeta.FETCH_INTERVAL) {
      if (!INT.test(value)) problems.push(`invalid number '${value.slice(0, 80)}' in metadata '${name}'`);
      // a negative or absurd interval would make the URL due forever or never: the default is kept
      else if (Number(value) < 0 || !Number.isSafeInteger(Number(value))) problems.push(`fetch interval ${value.slice(0, 80)} in metadata '${name}' is not a number of seconds >= 0; the default interval is used`);
      else datum.fetchInterval = Number(value);
    } else if (name === SeedMeta.FIXED_FETCH_INTERVAL) {
      if (!INT.test(value)) {
        problems.push(`invalid number '${value.slice(0, 80)}' in metadata '${name}'`);
      } else if (Number(value) > -1) {
        // kept in the datum so AdaptiveFetchSchedule leaves the interval alone
        setMeta(datum.metaData, DatumMeta.FIXED_INTERVAL_KEY, String(Number(value)));
        datum.fetchInterval = Number(value);
      }
    } else {
      setMeta(datum.metaData, name, value);
    }
  }
  return problems;
}

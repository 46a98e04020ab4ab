/**
 * Serialisation of stored values, shared by every engine. CrawlDatum has its own columns in the
 * CrawlDb (sqlite/crawldb-schema.ts, postgres/pg-schema.ts); in segment parts (crawl_generate, crawl_fetch, crawl_parse) it has the compact binary layout below,
 * because a round writes and updatedb reads about twenty of them per fetched page. Every other value
 * (Content, ParseData, ParseText, Inlinks) goes through V8's structured-clone serialiser: compact,
 * binary-safe (Uint8Array round-trips as Uint8Array), no schema to keep in step.
 *
 * The first byte tells the two apart: V8's serialiser always starts with 0xFF, a datum with DATUM_V1.
 */
import v8 from 'node:v8';
import type { CrawlDatum } from '../model/crawl-datum.js';

const DATUM_V1 = 0x01;
/** tag, status, retries (u32), fetchTime, fetchInterval, score, modifiedTime (f64), signature length (u16). */
const HEADER = 1 + 1 + 4 + 8 * 4 + 2;
const NO_SIGNATURE = 0xffff;
const DATUM_KEYS = new Set(['status', 'fetchTime', 'retries', 'fetchInterval', 'score', 'signature', 'modifiedTime', 'metaData']);

export function encodeValue(value: unknown): Buffer {
  return v8.serialize(value);
}

export function decodeValue<V>(bytes: Uint8Array): V {
  if (bytes[0] === DATUM_V1) return decodeDatum(bytes) as V;
  return v8.deserialize(bytes) as V;
}

/** A CrawlDatum in the compact layout; anything that is not a plain datum falls back to encodeValue. */
export function encodeDatum(datum: CrawlDatum): Buffer {
  if (!isPlainDatum(datum)) return encodeValue(datum);
  const sig = datum.signature;
  const meta = hasKeys(datum.metaData) ? Buffer.from(JSON.stringify(datum.metaData), 'utf8') : null;
  const sigLen = sig ? sig.length : 0;
  const buf = Buffer.allocUnsafe(HEADER + sigLen + (meta ? meta.length : 0));
  buf[0] = DATUM_V1;
  buf[1] = datum.status;
  buf.writeUInt32LE(datum.retries, 2);
  buf.writeDoubleLE(datum.fetchTime, 6);
  buf.writeDoubleLE(datum.fetchInterval, 14);
  buf.writeDoubleLE(datum.score, 22);
  buf.writeDoubleLE(datum.modifiedTime, 30);
  buf.writeUInt16LE(sig ? sigLen : NO_SIGNATURE, 38);
  if (sig) buf.set(sig, HEADER);
  if (meta) buf.set(meta, HEADER + sigLen);
  return buf;
}

function decodeDatum(bytes: Uint8Array): CrawlDatum {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sigLen = buf.readUInt16LE(38);
  const metaStart = HEADER + (sigLen === NO_SIGNATURE ? 0 : sigLen);
  return {
    status: buf[1]!,
    fetchTime: buf.readDoubleLE(6),
    retries: buf.readUInt32LE(2),
    fetchInterval: buf.readDoubleLE(14),
    score: buf.readDoubleLE(22),
    signature: sigLen === NO_SIGNATURE ? null : new Uint8Array(buf.subarray(HEADER, HEADER + sigLen)),
    modifiedTime: buf.readDoubleLE(30),
    metaData: metaStart < buf.length ? JSON.parse(buf.toString('utf8', metaStart)) : {},
  };
}

function isPlainDatum(d: CrawlDatum): boolean {
  let n = 0;
  for (const k in d) {
    if (!DATUM_KEYS.has(k)) return false;
    n++;
  }
  return n === DATUM_KEYS.size
    && Number.isInteger(d.status) && d.status >= 0 && d.status <= 0xff
    && Number.isInteger(d.retries) && d.retries >= 0 && d.retries <= 0xffffffff
    && (d.signature === null || (d.signature instanceof Uint8Array && d.signature.length < NO_SIGNATURE))
    && typeof d.metaData === 'object' && d.metaData !== null;
}

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

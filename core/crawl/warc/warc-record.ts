/**
 * One WARC/1.1 record (ISO 28500:2017): the version line, named fields, a blank line, the block, and
 * two CRLFs. Each record is compressed as its own gzip member, as the spec's annex recommends, so a
 * reader can seek to any record's offset (CDX indexes) and standard tools read the file as one stream.
 */
import { createHash, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';

export type WarcType = 'warcinfo' | 'response' | 'resource' | 'request' | 'metadata';

export interface WarcRecord {
  type: WarcType;
  /** `<urn:uuid:…>`; made up when absent. */
  id?: string;
  date: Date;
  targetUri?: string;
  contentType: string;
  /** More named fields, in order (WARC-Concurrent-To, WARC-Payload-Digest, …). */
  fields?: [string, string][];
  block: Uint8Array;
}

const CRLF = '\r\n';

export function newRecordId(): string {
  return `<urn:uuid:${randomUUID()}>`;
}

/** `sha1:<base32>`, the digest form Heritrix, wget and warcio write and check. */
export function sha1Digest(bytes: Uint8Array): string {
  return `sha1:${base32(createHash('sha1').update(bytes).digest())}`;
}

/** WARC-Date: UTC, second precision (what every WARC 1.0 reader accepts too). */
export function warcDate(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function serializeRecord(r: WarcRecord): Buffer {
  const fields: [string, string][] = [
    ['WARC-Type', r.type],
    ['WARC-Record-ID', r.id ?? newRecordId()],
    ['WARC-Date', warcDate(r.date)],
  ];
  if (r.targetUri) fields.push(['WARC-Target-URI', r.targetUri]);
  fields.push(...(r.fields ?? []));
  fields.push(['WARC-Block-Digest', sha1Digest(r.block)], ['Content-Type', r.contentType], ['Content-Length', String(r.block.length)]);
  const head = 'WARC/1.1' + CRLF + fields.map(([k, v]) => `${k}: ${oneLine(v)}${CRLF}`).join('') + CRLF;
  return Buffer.concat([Buffer.from(head, 'utf8'), r.block, Buffer.from(CRLF + CRLF)]);
}

export function gzipRecord(r: WarcRecord): Buffer {
  return gzipSync(serializeRecord(r));
}

/** Field values may not hold CR or LF (they would end the field); folding is deprecated in 1.1. */
function oneLine(v: string): string {
  return v.replace(/[\r\n]+/g, ' ');
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

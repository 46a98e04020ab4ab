/**
 * An independent WARC/1.1 reader for the tests, written from the spec (ISO 28500:2017 and the IIPC
 * 1.1 text), not from nutch-ts's writer: it walks the file gzip member by gzip member (each must hold
 * exactly one record, CRC checked by gunzip), parses the version line, the named fields, the block of
 * exactly Content-Length bytes and the closing CRLF CRLF, and checks the sha1 block digest against a
 * base32 decoding of the stated one.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, inflateRawSync } from 'node:zlib';

export interface ReadRecord {
  version: string;
  /** Field names lower-cased (the spec makes them case-insensitive). */
  fields: Map<string, string>;
  block: Buffer;
  /** Offset of the record's gzip member in the file. */
  offset: number;
}

export function readWarcGz(file: Buffer): ReadRecord[] {
  const records: ReadRecord[] = [];
  let pos = 0;
  while (pos < file.length) {
    if (file[pos] !== 0x1f || file[pos + 1] !== 0x8b || file[pos + 2] !== 8) throw new Error(`no gzip member at offset ${pos}`);
    if (file[pos + 3] !== 0) throw new Error(`gzip member at ${pos} has header flags ${file[pos + 3]}; this reader expects none`);
    const { engine } = inflateRawSync(file.subarray(pos + 10), { info: true }) as unknown as { engine: { bytesWritten: number } };
    const end = pos + 10 + engine.bytesWritten + 8;
    const raw = gunzipSync(file.subarray(pos, end));
    records.push(parseRecord(raw, pos));
    pos = end;
  }
  return records;
}

function parseRecord(raw: Buffer, offset: number): ReadRecord {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) throw new Error(`record at ${offset}: no end of header`);
  const lines = raw.subarray(0, headEnd).toString('utf8').split('\r\n');
  const version = lines.shift()!;
  if (!/^WARC\/1\.[01]$/.test(version)) throw new Error(`record at ${offset}: bad version line ${JSON.stringify(version)}`);
  const fields = new Map<string, string>();
  for (const line of lines) {
    const m = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*(.*)$/.exec(line);
    if (!m) throw new Error(`record at ${offset}: bad field line ${JSON.stringify(line)}`);
    fields.set(m[1]!.toLowerCase(), m[2]!.trim());
  }
  for (const f of ['warc-record-id', 'warc-date', 'warc-type', 'content-length']) if (!fields.has(f)) throw new Error(`record at ${offset}: mandatory field ${f} missing`);
  if (!/^<urn:uuid:[0-9a-f-]{36}>$/.test(fields.get('warc-record-id')!)) throw new Error(`record at ${offset}: bad WARC-Record-ID`);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(fields.get('warc-date')!)) throw new Error(`record at ${offset}: bad WARC-Date`);
  const length = Number(fields.get('content-length'));
  const start = headEnd + 4;
  const block = raw.subarray(start, start + length);
  if (block.length !== length) throw new Error(`record at ${offset}: block shorter than Content-Length`);
  if (raw.subarray(start + length).toString('latin1') !== '\r\n\r\n') throw new Error(`record at ${offset}: not closed by exactly CRLF CRLF (one record per gzip member)`);
  const digest = fields.get('warc-block-digest');
  if (digest) {
    const [alg, value] = digest.split(':');
    if (alg !== 'sha1') throw new Error(`record at ${offset}: unexpected digest algorithm ${alg}`);
    if (!base32Decode(value!).equals(createHash('sha1').update(block).digest())) throw new Error(`record at ${offset}: block digest mismatch`);
  }
  return { version, fields, block, offset };
}

function base32Decode(s: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const out: number[] = [];
  let bits = 0;
  let acc = 0;
  for (const ch of s.replace(/=+$/, '')) {
    const v = alphabet.indexOf(ch);
    if (v < 0) throw new Error(`bad base32 character ${ch}`);
    acc = ((acc << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((acc >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** An HTTP message in a block: start line, headers (lower-cased names), body. */
export function parseHttp(block: Buffer): { startLine: string; headers: Map<string, string[]>; body: Buffer } {
  const end = block.indexOf('\r\n\r\n');
  if (end < 0) throw new Error('HTTP block without end of headers');
  const [startLine, ...lines] = block.subarray(0, end).toString('latin1').split('\r\n');
  const headers = new Map<string, string[]>();
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i <= 0) throw new Error(`bad HTTP header line ${JSON.stringify(l)}`);
    const k = l.slice(0, i).trim().toLowerCase();
    headers.set(k, [...(headers.get(k) ?? []), l.slice(i + 1).trim()]);
  }
  return { startLine: startLine!, headers, body: block.subarray(end + 4) };
}

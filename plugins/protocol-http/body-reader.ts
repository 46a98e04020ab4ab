/**
 * Reads a response body with Nutch's limits: http.content.limit applies to the DECODED bytes (so a
 * gzip bomb stops at the limit), http.time.limit bounds the whole read; what arrived before either
 * limit is kept and flagged truncated (reason LENGTH or TIME). A connection lost mid-body keeps what
 * arrived, reason DISCONNECT (Nutch's TruncatedContentReason values). The caller passes a finite
 * maxBytes (http.content.limit capped by fetcher.content.ceiling): no body is ever held whole.
 */
import { Readable, pipeline, type Transform } from 'node:stream';
import { createGunzip, createInflate, createInflateRaw, createBrotliDecompress } from 'node:zlib';
import { BodySink } from './body-sink.js';

export type TruncatedReason = 'LENGTH' | 'TIME' | 'DISCONNECT';

export interface BodyResult {
  bytes: Uint8Array;
  truncated: TruncatedReason | null;
  /** The read error when truncated by DISCONNECT or when nothing arrived. */
  error?: unknown;
  /** The in-flight content budget refused the bytes: the response is to be dropped. */
  refused?: boolean;
}

export interface BodyLimits {
  /** Max decoded bytes (finite: the protocol's limit capped by the ceiling). */
  maxBytes: number;
  /** Absolute deadline (Date.now() ms) or Infinity. */
  deadline: number;
  /** The identity body's Content-Length when the server sent one: the buffer is allocated once. */
  expectedBytes?: number;
  /** Reserves bytes on the fetcher's in-flight budget before they are held (false: drop the response). */
  reserve?: (bytes: number) => boolean;
}

function decoderFor(encoding: string, first: Buffer): Transform | null {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      // zlib-wrapped deflate starts with 0x78; some servers send raw deflate
      return first[0] === 0x78 ? createInflate() : createInflateRaw();
    case 'br':
      return createBrotliDecompress();
    default:
      return null;
  }
}

/** True when the body is passed through as is (no or unknown Content-Encoding). */
export function isIdentity(encoding: string): boolean {
  const enc = encoding.trim().toLowerCase();
  return !enc || enc === 'identity' || !['gzip', 'x-gzip', 'deflate', 'br'].includes(enc);
}

/** The decoded chunks of a body (identity when the encoding is unknown or absent). */
async function* decodedChunks(body: AsyncIterable<Buffer>, encoding: string): AsyncGenerator<Buffer> {
  if (isIdentity(encoding)) {
    yield* body;
    return;
  }
  const it = body[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  const decoder = decoderFor(encoding.trim().toLowerCase(), first.value)!;
  const source = Readable.from((async function* () {
    yield first.value;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
  })());
  pipeline(source, decoder, () => {});
  try {
    yield* decoder as AsyncIterable<Buffer>;
  } finally {
    // stopped early (limit, deadline): the decoder and its source must not keep inflating
    decoder.destroy();
    source.destroy();
  }
}

export async function readBody(body: Readable & AsyncIterable<Buffer>, encoding: string, limits: BodyLimits): Promise<BodyResult> {
  const max = Math.max(0, limits.maxBytes);
  const expected = isIdentity(encoding) ? limits.expectedBytes : undefined;
  const sink = new BodySink(max, expected, limits.reserve);
  let truncated: TruncatedReason | null = null;
  let timedOut = false;
  const remaining = limits.deadline - Date.now();
  const timer = Number.isFinite(remaining)
    ? setTimeout(() => {
      timedOut = true;
      body.destroy(new Error('http.time.limit reached'));
    }, Math.max(0, remaining))
    : null;
  try {
    for await (const chunk of decodedChunks(body, encoding)) {
      if (!sink.push(chunk)) {
        if (sink.refused) return { bytes: new Uint8Array(0), truncated: null, refused: true };
        truncated = 'LENGTH';
        break;
      }
      // a body arriving faster than timers fire (loopback, a decoder's burst) still meets the deadline
      if (Date.now() >= limits.deadline) {
        truncated = 'TIME';
        break;
      }
    }
  } catch (err) {
    if (timedOut) truncated = 'TIME';
    else return { bytes: sink.bytes(), truncated: sink.length > 0 ? 'DISCONNECT' : null, error: err };
  } finally {
    if (timer) clearTimeout(timer);
    if (!body.destroyed) body.destroy();
  }
  return { bytes: sink.bytes(), truncated };
}

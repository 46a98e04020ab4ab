/**
 * Reads a response body with Nutch's limits: http.content.limit applies to the DECODED bytes (so a
 * gzip bomb stops at the limit), http.time.limit bounds the whole read; what arrived before either
 * limit is kept and flagged truncated (reason LENGTH or TIME). A connection lost mid-body keeps what
 * arrived, reason DISCONNECT (Nutch's TruncatedContentReason values).
 */
import { Readable, pipeline, type Transform } from 'node:stream';
import { createGunzip, createInflate, createInflateRaw, createBrotliDecompress } from 'node:zlib';

export type TruncatedReason = 'LENGTH' | 'TIME' | 'DISCONNECT';

export interface BodyResult {
  bytes: Uint8Array;
  truncated: TruncatedReason | null;
  /** The read error when truncated by DISCONNECT or when nothing arrived. */
  error?: unknown;
}

export interface BodyLimits {
  /** Max decoded bytes; < 0 = none. */
  maxBytes: number;
  /** Absolute deadline (Date.now() ms) or Infinity. */
  deadline: number;
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

/** The decoded chunks of a body (identity when the encoding is unknown or absent). */
async function* decodedChunks(body: AsyncIterable<Buffer>, encoding: string): AsyncGenerator<Buffer> {
  const enc = encoding.trim().toLowerCase();
  if (!enc || enc === 'identity') {
    yield* body;
    return;
  }
  const it = body[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  const decoder = decoderFor(enc, first.value);
  if (!decoder) {
    yield first.value;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
    return;
  }
  const source = Readable.from((async function* () {
    yield first.value;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
  })());
  pipeline(source, decoder, () => {});
  yield* decoder as AsyncIterable<Buffer>;
}

export async function readBody(body: Readable & AsyncIterable<Buffer>, encoding: string, limits: BodyLimits): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let total = 0;
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
      if (limits.maxBytes >= 0 && total + chunk.length > limits.maxBytes) {
        const keep = limits.maxBytes - total;
        if (keep > 0) chunks.push(chunk.subarray(0, keep));
        total += Math.max(0, keep);
        truncated = 'LENGTH';
        break;
      }
      chunks.push(chunk);
      total += chunk.length;
    }
  } catch (err) {
    if (timedOut) truncated = 'TIME';
    else {
      const bytes = Buffer.concat(chunks, total);
      return { bytes, truncated: total > 0 ? 'DISCONNECT' : null, error: err };
    }
  } finally {
    if (timer) clearTimeout(timer);
    if (!body.destroyed) body.destroy();
  }
  return { bytes: Buffer.concat(chunks, total), truncated };
}

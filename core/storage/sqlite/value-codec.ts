/**
 * Serialisation of stored values. CrawlDatum has its own columns (see crawldb-schema.ts); segment
 * and LinkDb values (Content, ParseData, ParseText, Inlinks) go through V8's structured-clone
 * serialiser: compact, binary-safe (Uint8Array round-trips as Uint8Array), no schema to keep in step.
 */
import v8 from 'node:v8';

export function encodeValue(value: unknown): Buffer {
  return v8.serialize(value);
}

export function decodeValue<V>(bytes: Uint8Array): V {
  return v8.deserialize(bytes) as V;
}

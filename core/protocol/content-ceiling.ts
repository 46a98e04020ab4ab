/**
 * The hard per-response memory ceiling (`fetcher.content.ceiling`). A protocol's own limit
 * (http.content.limit, file.content.limit) may be -1 ("no limit", what users crawling whole sites set)
 * or larger than what one process can hold, store and parse; every protocol caps it with this, so a
 * 2 GiB body or a gzip bomb is stored truncated (flagged LENGTH) instead of taking the fetch down.
 * Bounded above because a stored value must stay well under SQLite's 1 GB blob limit and the parse
 * worker decodes the bytes to a string (twice their size in UTF-16).
 */
import type { Configuration } from '../config/configuration.js';

export const CONTENT_CEILING_PROPERTY = 'fetcher.content.ceiling';
export const DEFAULT_CONTENT_CEILING = 128 * 1024 * 1024;

/** The ceiling in bytes. */
export function contentCeiling(conf: Configuration): number {
  return conf.getInt(CONTENT_CEILING_PROPERTY, DEFAULT_CONTENT_CEILING);
}

/** The bytes a protocol may hold for one response: its own limit (-1 = none) capped by the ceiling. */
export function effectiveContentLimit(conf: Configuration, protocolLimit: number): number {
  const ceiling = contentCeiling(conf);
  return protocolLimit < 0 ? ceiling : Math.min(protocolLimit, ceiling);
}

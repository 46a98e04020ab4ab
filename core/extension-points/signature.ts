/**
 * Signature — a single implementation, selected by `db.signature.class` (extension id or Nutch class
 * name). Runs in parse workers; returns the signature bytes of a page.
 */
import type { Content } from '../model/content.js';
import type { Parse } from '../model/parse.js';

export interface Signature {
  calculate(content: Content, parse: Parse): Uint8Array;
}

/**
 * The document the indexer starts from, as Nutch's IndexerMapReduce builds it before the filters:
 * id, segment and digest; and the clean-up applied after them: string values made well-formed
 * (lone UTF-16 surrogates become U+FFFD, so every writer can encode them) and empty field names dropped.
 */
import { createDocument, type NutchDocument } from '../../model/nutch-document.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import { ParseMeta, type ParseData } from '../../model/parse.js';
import { getMeta } from '../../model/metadata.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function wellFormed(s: string): string {
  LONE_SURROGATE.lastIndex = 0;
  return LONE_SURROGATE.test(s) ? s.replace(LONE_SURROGATE, '\uFFFD') : s;
}

function hex(bytes: Uint8Array | null | undefined): string | undefined {
  return bytes && bytes.length ? Buffer.from(bytes).toString('hex') : undefined;
}

export function startDocument(id: string, segmentName: string, parseData: ParseData, dbDatum: CrawlDatum | null, fetchDatum: CrawlDatum | null): NutchDocument {
  const doc = createDocument();
  doc.fields.id = [id];
  doc.fields.segment = [getMeta(parseData.contentMeta, ParseMeta.SEGMENT_NAME) ?? getMeta(parseData.parseMeta, ParseMeta.SEGMENT_NAME) ?? segmentName];
  const digest = getMeta(parseData.contentMeta, ParseMeta.SIGNATURE) ?? getMeta(parseData.parseMeta, ParseMeta.SIGNATURE) ?? hex(fetchDatum?.signature) ?? hex(dbDatum?.signature);
  if (digest) doc.fields.digest = [digest];
  return doc;
}

export function sanitizeDocument(doc: NutchDocument): NutchDocument {
  for (const [name, values] of Object.entries(doc.fields)) {
    if (!name.trim() || !Array.isArray(values)) {
      delete doc.fields[name];
      continue;
    }
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v === 'string') values[i] = wellFormed(v);
      else if (v === null || v === undefined) values.splice(i--, 1);
    }
  }
  return doc;
}

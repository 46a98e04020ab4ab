/** A CrawlDatum as one JSON string (signature as hex) for scratch space: ExternalSort payloads. */
import type { CrawlDatum } from '../../model/crawl-datum.js';

export function encodeDatum(d: CrawlDatum): string {
  return JSON.stringify({ ...d, signature: d.signature ? Buffer.from(d.signature).toString('hex') : null });
}

export function decodeDatum(s: string): CrawlDatum {
  const o = JSON.parse(s) as Omit<CrawlDatum, 'signature'> & { signature: string | null };
  return { ...o, signature: o.signature === null ? null : new Uint8Array(Buffer.from(o.signature, 'hex')) };
}

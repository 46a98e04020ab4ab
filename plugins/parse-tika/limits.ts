/** The bounds every extractor works within (plugin config `tika.*`), so no document can exhaust a worker. */
export interface ExtractLimits {
  /** Characters of text kept per document; the rest is dropped. */
  maxTextChars: number;
  /** Bytes a packaged document (zip) may expand to, over all the entries read. */
  maxExpandedBytes: number;
  /** Expanded bytes per compressed byte a packaged document may reach past its first MiB; -1: unchecked. */
  maxExpansionRatio: number;
  /** Bytes of buffers pdf.js may hold beyond the document's own (decoded streams, fonts) while reading one PDF. */
  maxPdfDecodedBytes: number;
}

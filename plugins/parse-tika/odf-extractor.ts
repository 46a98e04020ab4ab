/**
 * OpenDocument (ODT, ODS, ODP and the other vnd.oasis.opendocument types), as Tika's OpenDocumentParser:
 * meta.xml for the metadata; content.xml's body for the text — paragraphs and headings by line,
 * `text:s` / `text:tab` / `text:line-break` as whitespace, table cells by tab and rows by line, each
 * drawing page (slide) by paragraph; `text:a xlink:href` as outlinks anchored by their text.
 */
import { DocumentBuilder, DocumentError, type ExtractedDocument } from './document.js';
import type { ExtractLimits } from './limits.js';
import { readCoreProperties } from './office-metadata.js';
import { readXml } from './xml-reader.js';
import { ZipArchive } from './zip-archive.js';

const LINE_ELEMENTS = new Set(['text:p', 'text:h', 'text:list-item', 'table:table-row', 'draw:page', 'table:table']);

export function extractOdf(bytes: Uint8Array, limits: ExtractLimits): ExtractedDocument {
  const zip = new ZipArchive(bytes, limits);
  const doc = new DocumentBuilder(limits.maxTextChars);
  readCoreProperties(zip, 'meta.xml', doc);
  const content = zip.textPieces('content.xml');
  if (content === null) throw new DocumentError('the document has no content.xml: not an OpenDocument file', 'invalid');
  let inBody = false;
  let skip = 0;
  const links: { url: string; text: string }[] = [];
  let inCell = 0;
  let rowCells = 0;
  readXml(content, 'content.xml', {
    open(name, a) {
      if (name === 'office:body') inBody = true;
      if (!inBody) return;
      // Annotations and tracked deletions are not the document's text.
      if (name === 'office:annotation' || name === 'text:tracked-changes') skip++;
      if (skip) return;
      if (name === 'text:s') doc.append(' '.repeat(Math.min(Number(a['text:c'] ?? 1) || 1, 100)));
      else if (name === 'text:tab') doc.append('\t');
      else if (name === 'text:line-break') doc.newline();
      else if (name === 'text:a') links.push({ url: a['xlink:href'] ?? '', text: '' });
      else if (name === 'table:table-cell') {
        if (rowCells++ > 0) doc.append('\t');
        inCell++;
      } else if (name === 'table:table-row') rowCells = 0;
    },
    close(name) {
      if (name === 'office:body') inBody = false;
      if (name === 'office:annotation' || name === 'text:tracked-changes') {
        skip--;
        return;
      }
      if (!inBody || skip) return;
      if (name === 'text:a') {
        const l = links.pop();
        if (l && l.url && !l.url.startsWith('#')) doc.link(l.url, l.text);
      } else if (name === 'table:table-cell') inCell--;
      else if (inCell && (name === 'text:p' || name === 'text:h')) doc.append(' ');
      else if (LINE_ELEMENTS.has(name)) doc.newline();
    },
    text(t) {
      if (!inBody || skip) return;
      doc.append(t);
      for (const l of links) l.text += t;
    },
  });
  return doc.build();
}

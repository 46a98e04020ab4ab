/**
 * Strict, streaming XML for the document formats (saxes: a conformant, non-recursive SAX parser),
 * from a string or from pieces of text as a zip part is inflated:
 * a part that is not well-formed is a DocumentError naming the part and the line, never a half-read
 * document. Names stay as written (`w:t`, `text:a`, `dc:title`): the formats fix their prefixes.
 * Entities other than XML's five and character references are refused, so an entity bomb
 * ("billion laughs") cannot expand.
 */
import { SaxesParser } from 'saxes';
import { DocumentError } from './document.js';

export interface XmlHandler {
  open?(name: string, attributes: Record<string, string>, depth: number): void;
  close?(name: string, depth: number): void;
  text?(text: string): void;
}

/** `xml` whole, or in pieces as ZipArchive.textPieces decodes them (a BOM is dropped either way). */
export function readXml(xml: string | Iterable<string>, part: string, handler: XmlHandler): void {
  const parser = new SaxesParser({ xmlns: false, position: true });
  let depth = 0;
  parser.on('opentag', (tag) => {
    depth++;
    handler.open?.(tag.name, tag.attributes as Record<string, string>, depth);
    if (tag.isSelfClosing) {
      handler.close?.(tag.name, depth);
      depth--;
    }
  });
  parser.on('closetag', (tag) => {
    if (tag.isSelfClosing) return;
    handler.close?.(tag.name, depth);
    depth--;
  });
  if (handler.text) {
    parser.on('text', handler.text);
    parser.on('cdata', handler.text);
  }
  try {
    if (typeof xml === 'string') parser.write(xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml);
    else {
      let first = true;
      for (const piece of xml) {
        parser.write(first && piece.charCodeAt(0) === 0xfeff ? piece.slice(1) : piece);
        first = false;
      }
    }
    parser.close();
  } catch (err) {
    if (err instanceof DocumentError) throw err;
    throw new DocumentError(`${part} is not well-formed XML: ${(err as Error).message.replace(/\s+/g, ' ')}`, 'invalid');
  }
}

/**
 * Plain XML (text/xml, application/xml, image/svg+xml and other +xml types), as Tika's XMLParser: the
 * character data of every element in document order, the root's first `<title>` child (SVG's, or
 * any vocabulary's) or a Dublin Core title, `xml:lang` of the root as dc:language, and `href` /
 * `xlink:href` attributes (SVG `<a>`, XLink) as outlinks anchored by the element's text.
 */
import { DocumentBuilder, MetaKeys, type ExtractedDocument } from './document.js';
import { readXml } from './xml-reader.js';
import type { ExtractLimits } from './limits.js';

const BLOCK_BREAK = /^(?:p|div|para|title|desc|text|li|item|entry|section|h[1-6]|br)$/;

export function extractXml(xml: string, limits: ExtractLimits): ExtractedDocument {
  const doc = new DocumentBuilder(limits.maxTextChars);
  let titleDepth = 0;
  let titleText = '';
  const openLinks: { depth: number; url: string; text: string }[] = [];
  readXml(xml, 'the XML document', {
    open(name, attrs, depth) {
      const local = name.replace(/^.*:/, '').toLowerCase();
      if (depth === 1 && attrs['xml:lang']) doc.setMeta(MetaKeys.LANGUAGE, attrs['xml:lang']);
      if (!doc.title && !titleDepth && (depth === 2 && local === 'title' || name === 'dc:title')) titleDepth = depth;
      const href = attrs['xlink:href'] ?? attrs.href;
      if (href && !href.startsWith('#')) openLinks.push({ depth, url: href, text: '' });
      if (BLOCK_BREAK.test(local)) doc.newline();
    },
    close(name, depth) {
      if (titleDepth === depth) {
        doc.title = titleText.trim();
        titleDepth = 0;
      }
      const last = openLinks[openLinks.length - 1];
      if (last && last.depth === depth) {
        openLinks.pop();
        doc.link(last.url, last.text);
      }
      if (BLOCK_BREAK.test(name.replace(/^.*:/, '').toLowerCase())) doc.newline();
    },
    text(t) {
      if (titleDepth) titleText += t;
      for (const l of openLinks) l.text += t;
      doc.append(t);
      if (/\S$/.test(t)) doc.append(' ');
    },
  });
  return doc.build();
}

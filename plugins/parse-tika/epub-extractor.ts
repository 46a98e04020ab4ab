/**
 * EPUB 2 and 3, as Tika's EpubParser: META-INF/container.xml names the package document (OPF), whose
 * Dublin Core metadata gives title, creator, language, dates, publisher and subjects, and whose spine
 * orders the content documents. Each XHTML content document is read leniently (htmlparser2, as
 * browsers and e-readers forgive markup slips): text without script and style, block elements by
 * line, and `<a href>` to absolute URLs as outlinks — links between the book's own chapters name files
 * inside the archive, not web pages, and are left out.
 */
import { Parser as HtmlTokenizer } from 'htmlparser2';
import { DocumentBuilder, DocumentError, MetaKeys, type ExtractedDocument } from './document.js';
import type { ExtractLimits } from './limits.js';
import { readMetaElements } from './office-metadata.js';
import { readXml } from './xml-reader.js';
import { ZipArchive } from './zip-archive.js';

const OPF_NAMES: Record<string, string> = {
  'dc:title': MetaKeys.TITLE,
  'dc:creator': MetaKeys.CREATOR,
  'dc:language': MetaKeys.LANGUAGE,
  'dc:subject': MetaKeys.SUBJECT,
  'dc:description': MetaKeys.DESCRIPTION,
  'dc:publisher': MetaKeys.PUBLISHER,
  'dc:date': MetaKeys.CREATED,
};

const BLOCKS = new Set(['p', 'div', 'br', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'tr', 'section', 'article', 'blockquote', 'pre', 'title']);
const SKIPPED = new Set(['script', 'style', 'head']);

export function extractEpub(bytes: Uint8Array, limits: ExtractLimits): ExtractedDocument {
  const zip = new ZipArchive(bytes, limits);
  const container = zip.readText('META-INF/container.xml');
  if (container === null) throw new DocumentError('the archive has no META-INF/container.xml: not an EPUB', 'invalid');
  let opfPath = '';
  readXml(container, 'META-INF/container.xml', {
    open(name, a) {
      if (!opfPath && name.replace(/^.*:/, '') === 'rootfile' && a['full-path']) opfPath = a['full-path'];
    },
  });
  const opf = opfPath ? zip.readText(opfPath) : null;
  if (opf === null) throw new DocumentError(`the EPUB package document ${opfPath || '(none named)'} is missing`, 'invalid');
  const doc = new DocumentBuilder(limits.maxTextChars);
  const folder = opfPath.slice(0, opfPath.lastIndexOf('/') + 1);
  const manifest = new Map<string, { href: string; type: string }>();
  const spine: string[] = [];
  // the package document: metadata into doc; the manifest and the spine (reading order) on the way
  readMetaElements(opf, opfPath, doc, (name, a) => {
    const local = name.replace(/^opf:/, '');
    if (OPF_NAMES[name]) return OPF_NAMES[name]!;
    if (local === 'meta' && a.property === 'dcterms:modified') return MetaKeys.MODIFIED;
    if (local === 'item' && a.id && a.href) manifest.set(a.id, { href: a.href, type: a['media-type'] ?? '' });
    else if (local === 'itemref' && a.idref && a.linear !== 'no') spine.push(a.idref);
    return null;
  });
  for (const id of spine) {
    const item = manifest.get(id);
    if (!item || !/html|xml/.test(item.type)) continue;
    const html = zip.textPieces(folder + decodeURIComponent(item.href.split('#')[0]!));
    if (html !== null) readContentDocument(html, doc);
  }
  return doc.build();
}

/** One content document, tokenized piece by piece as it is inflated. */
function readContentDocument(html: Iterable<string>, doc: DocumentBuilder): void {
  let skip = 0;
  const links: { url: string; text: string }[] = [];
  const tokenizer = new HtmlTokenizer({
    onopentag(name, attrs) {
      if (SKIPPED.has(name)) skip++;
      if (BLOCKS.has(name)) doc.newline();
      if (name === 'a') links.push({ url: attrs.href ?? '', text: '' });
    },
    onclosetag(name) {
      if (SKIPPED.has(name)) skip = Math.max(0, skip - 1);
      if (BLOCKS.has(name)) doc.newline();
      if (name === 'a') {
        const l = links.pop();
        if (l && /^[a-z][a-z0-9+.-]*:/i.test(l.url)) doc.link(l.url, l.text);
      }
    },
    ontext(t) {
      if (skip) return;
      doc.append(t);
      for (const l of links) l.text += t;
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true });
  for (const piece of html) tokenizer.write(piece);
  tokenizer.end();
  doc.newline();
}

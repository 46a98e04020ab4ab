/**
 * Document metadata of the packaged formats into Tika's names: OOXML's docProps/core.xml (Dublin Core
 * plus cp:keywords) and ODF's meta.xml (Dublin Core plus meta:initial-creator, meta:creation-date,
 * meta:keyword). A missing part is no error: the metadata is only what the document states.
 */
import { MetaKeys, type DocumentBuilder } from './document.js';
import { readXml } from './xml-reader.js';
import type { ZipArchive } from './zip-archive.js';

const CORE_NAMES: Record<string, string> = {
  'dc:title': MetaKeys.TITLE,
  'dc:creator': MetaKeys.CREATOR,
  'dc:language': MetaKeys.LANGUAGE,
  'dc:subject': MetaKeys.SUBJECT,
  'dc:description': MetaKeys.DESCRIPTION,
  'dcterms:created': MetaKeys.CREATED,
  'dcterms:modified': MetaKeys.MODIFIED,
  'cp:keywords': MetaKeys.KEYWORDS,
  'cp:lastModifiedBy': 'meta:last-author',
  // ODF meta.xml
  'meta:initial-creator': 'meta:initial-author',
  'meta:creation-date': MetaKeys.CREATED,
  'dc:date': MetaKeys.MODIFIED,
  'meta:keyword': MetaKeys.KEYWORDS,
};

/**
 * Streams a metadata part: each element that `keyOf` names a metadata key sets that key to its text
 * (OOXML/ODF core properties here, the EPUB package document in epub-extractor.ts).
 */
export function readMetaElements(xml: string, part: string, doc: DocumentBuilder, keyOf: (name: string, attributes: Record<string, string>) => string | null): void {
  let key: string | null = null;
  let value = '';
  readXml(xml, part, {
    open(name, attributes) {
      key = keyOf(name, attributes);
      value = '';
    },
    close() {
      if (key) doc.setMeta(key, value);
      key = null;
    },
    text(t) {
      if (key) value += t;
    },
  });
}

/** Reads the simple `<prefix:name>value</prefix:name>` properties of a metadata part into `doc`. */
export function readCoreProperties(zip: ZipArchive, part: string, doc: DocumentBuilder): void {
  const xml = zip.readText(part);
  if (xml === null) return;
  readMetaElements(xml, part, doc, (name) => CORE_NAMES[name] ?? null);
  // ODF names the author dc:creator only after an edit; the initial author is the creator otherwise.
  if (!doc.meta[MetaKeys.CREATOR] && doc.meta['meta:initial-author']) doc.meta[MetaKeys.CREATOR] = [...doc.meta['meta:initial-author']];
}

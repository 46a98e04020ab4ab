/**
 * Office Open XML (DOCX, XLSX, PPTX and their macro-enabled and template variants), as Tika's OOXML
 * parsers: docProps/core.xml gives the metadata; the text comes from the main parts in reading order
 * (the Word body; every worksheet, its name first, cells by tab and rows by line; every slide in the
 * presentation's order); hyperlinks are the external relationship targets of `w:hyperlink`,
 * `a:hlinkClick` and worksheet `hyperlink` elements, anchored by their text, plus Word HYPERLINK fields.
 */
import { DocumentBuilder, DocumentError, MetaKeys, type ExtractedDocument } from './document.js';
import type { ExtractLimits } from './limits.js';
import { readXml } from './xml-reader.js';
import { ZipArchive } from './zip-archive.js';
import { readCoreProperties } from './office-metadata.js';

export type OoxmlKind = 'docx' | 'xlsx' | 'pptx';

export function ooxmlKind(contentType: string): OoxmlKind | null {
  if (/wordprocessingml|ms-word\./.test(contentType)) return 'docx';
  if (/spreadsheetml|ms-excel\./.test(contentType)) return 'xlsx';
  if (/presentationml|ms-powerpoint\./.test(contentType)) return 'pptx';
  return null;
}

export function extractOoxml(bytes: Uint8Array, kind: OoxmlKind, limits: ExtractLimits): ExtractedDocument {
  const zip = new ZipArchive(bytes, limits);
  if (!zip.has('[Content_Types].xml')) throw new DocumentError('the archive has no [Content_Types].xml: not an Office Open XML document', 'invalid');
  const doc = new DocumentBuilder(limits.maxTextChars);
  readCoreProperties(zip, 'docProps/core.xml', doc);
  if (kind === 'docx') readWordBody(zip, doc);
  else if (kind === 'xlsx') readWorkbook(zip, doc);
  else readPresentation(zip, doc);
  return doc.build();
}

interface Relationship {
  target: string;
  external: boolean;
}

/** `<folder>/_rels/<name>.rels` of a part: relationship id -> target (internal targets made part paths). */
function relationships(zip: ZipArchive, part: string): Map<string, Relationship> {
  const slash = part.lastIndexOf('/');
  const folder = part.slice(0, slash + 1);
  const xml = zip.readText(`${folder}_rels/${part.slice(slash + 1)}.rels`);
  const rels = new Map<string, Relationship>();
  if (xml === null) return rels;
  readXml(xml, `${folder}_rels/${part.slice(slash + 1)}.rels`, {
    open(name, a) {
      if (name !== 'Relationship' || !a.Id || !a.Target) return;
      const external = a.TargetMode === 'External';
      rels.set(a.Id, { external, target: external ? a.Target : partPath(folder, a.Target) });
    },
  });
  return rels;
}

function partPath(folder: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const out: string[] = folder.split('/').filter(Boolean);
  for (const seg of target.split('/')) {
    if (seg === '..') out.pop();
    else if (seg && seg !== '.') out.push(seg);
  }
  return out.join('/');
}

/** A main part, as text pieces decoded while it is inflated (never held whole). */
function requirePart(zip: ZipArchive, name: string): Iterable<string> {
  const xml = zip.textPieces(name);
  if (xml === null) throw new DocumentError(`the document has no ${name}`, 'invalid');
  return xml;
}

function readWordBody(zip: ZipArchive, doc: DocumentBuilder): void {
  const part = 'word/document.xml';
  const rels = relationships(zip, part);
  let link: { url: string; text: string } | null = null;
  let inText = false;
  let inInstr = false;
  let instr = '';
  let field: { url: string; text: string } | null = null;
  let inResult = false;
  readXml(requirePart(zip, part), part, {
    open(name, a) {
      switch (name) {
        case 'w:hyperlink': {
          const rel = a['r:id'] ? rels.get(a['r:id']) : undefined;
          link = rel?.external ? { url: rel.target, text: '' } : null;
          return;
        }
        case 'w:t': inText = true; return;
        case 'w:tab': doc.append('\t'); return;
        case 'w:br': case 'w:cr': doc.newline(); return;
        case 'w:instrText': inInstr = true; return;
        case 'w:fldChar':
          if (a['w:fldCharType'] === 'begin') instr = '';
          else if (a['w:fldCharType'] === 'separate') {
            const m = /^\s*HYPERLINK\s+"([^"]+)"/.exec(instr);
            field = m ? { url: m[1]!, text: '' } : null;
            inResult = true;
          } else if (a['w:fldCharType'] === 'end') {
            if (field) doc.link(field.url, field.text);
            field = null;
            inResult = false;
          }
          return;
        default:
      }
    },
    close(name) {
      if (name === 'w:t') inText = false;
      else if (name === 'w:instrText') inInstr = false;
      else if (name === 'w:p') doc.newline();
      else if (name === 'w:hyperlink' && link) {
        doc.link(link.url, link.text);
        link = null;
      }
    },
    text(t) {
      if (inInstr) instr += t;
      if (!inText) return;
      doc.append(t);
      if (link) link.text += t;
      if (field && inResult) field.text += t;
    },
  });
  const title = doc.meta[MetaKeys.TITLE]?.[0];
  if (title) doc.title = title;
}

function readWorkbook(zip: ZipArchive, doc: DocumentBuilder): void {
  const shared: string[] = [];
  const sst = zip.textPieces('xl/sharedStrings.xml');
  if (sst !== null) {
    let current: string | null = null;
    let inT = false;
    let inPhonetic = false;
    readXml(sst, 'xl/sharedStrings.xml', {
      open(name) {
        if (name === 'si') current = '';
        else if (name === 't') inT = true;
        else if (name === 'rPh') inPhonetic = true;
      },
      close(name) {
        if (name === 'si') {
          shared.push(current ?? '');
          current = null;
        } else if (name === 't') inT = false;
        else if (name === 'rPh') inPhonetic = false;
      },
      text(t) {
        if (inT && !inPhonetic && current !== null) current += t;
      },
    });
  }
  const part = 'xl/workbook.xml';
  const rels = relationships(zip, part);
  const sheets: { name: string; part: string }[] = [];
  readXml(requirePart(zip, part), part, {
    open(name, a) {
      const rel = name === 'sheet' && a['r:id'] ? rels.get(a['r:id']) : undefined;
      if (rel && !rel.external) sheets.push({ name: a.name ?? '', part: rel.target });
    },
  });
  for (const sheet of sheets) {
    const xml = zip.textPieces(sheet.part);
    if (xml === null) continue;
    doc.append(sheet.name);
    doc.newline();
    const sheetRels = relationships(zip, sheet.part);
    let cellType = '';
    let inValue = false;
    let value = '';
    let firstInRow = true;
    readXml(xml, sheet.part, {
      open(name, a) {
        if (name === 'c') {
          cellType = a.t ?? '';
          value = '';
        } else if (name === 'v' || (name === 't' && cellType === 'inlineStr')) inValue = true;
        else if (name === 'row') firstInRow = true;
        else if (name === 'hyperlink' && a['r:id']) {
          const rel = sheetRels.get(a['r:id']);
          if (rel?.external) doc.link(rel.target, a.display ?? '');
        }
      },
      close(name) {
        if (name === 'v' || name === 't') inValue = false;
        else if (name === 'c') {
          const text = cellType === 's' ? shared[Number(value)] ?? '' : value;
          if (text) {
            if (!firstInRow) doc.append('\t');
            doc.append(text);
            firstInRow = false;
          }
        } else if (name === 'row') doc.newline();
      },
      text(t) {
        if (inValue) value += t;
      },
    });
    doc.newline();
  }
}

function readPresentation(zip: ZipArchive, doc: DocumentBuilder): void {
  const part = 'ppt/presentation.xml';
  const rels = relationships(zip, part);
  const slides: string[] = [];
  readXml(requirePart(zip, part), part, {
    open(name, a) {
      const rel = name === 'p:sldId' && a['r:id'] ? rels.get(a['r:id']) : undefined;
      if (rel && !rel.external) slides.push(rel.target);
    },
  });
  for (const slide of slides) {
    const xml = zip.textPieces(slide);
    if (xml === null) continue;
    const slideRels = relationships(zip, slide);
    let inText = false;
    let run: { url: string | null; text: string } | null = null;
    readXml(xml, slide, {
      open(name, a) {
        if (name === 'a:r') run = { url: null, text: '' };
        else if (name === 'a:hlinkClick' && run && a['r:id']) {
          const rel = slideRels.get(a['r:id']);
          if (rel?.external) run.url = rel.target;
        } else if (name === 'a:t') inText = true;
        else if (name === 'a:br') doc.newline();
      },
      close(name) {
        if (name === 'a:t') inText = false;
        else if (name === 'a:p') doc.newline();
        else if (name === 'a:r' && run) {
          if (run.url) doc.link(run.url, run.text);
          run = null;
        }
      },
      text(t) {
        if (!inText) return;
        doc.append(t);
        if (run) run.text += t;
      },
    });
    doc.newline();
  }
}

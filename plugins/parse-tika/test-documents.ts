/**
 * Writers for the documents parse-tika's tests parse: real files built here, byte by byte (PDF, RTF)
 * or with fflate's zip writer (DOCX, XLSX, PPTX, ODT, ODS, ODP, EPUB), so the tests need no fixtures
 * and every file carries the phrases the test looks for.
 */
import { deflateSync } from 'node:zlib';
import { zipSync, strToU8, type Zippable } from 'fflate';

export interface PdfLink {
  uri: string;
  rect?: [number, number, number, number];
}

export interface PdfSpec {
  title?: string;
  author?: string;
  created?: string;
  modified?: string;
  language?: string;
  /** `imageBytes`: a grey image of about that many bytes drawn over the page (a scanned page). */
  pages: { text: string; links?: PdfLink[]; imageBytes?: number }[];
  /** An /Encrypt dictionary whose user password is not empty: readers must ask for a password. */
  encrypted?: boolean;
  /** Extra stream objects appended to the file (e.g. images), each `bytes` long. */
  padding?: number;
}

const latin1 = (s: string) => Buffer.from(s, 'latin1');

function pdfString(s: string): string {
  return `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** A minimal, valid PDF 1.4: catalog, pages, Helvetica, one content stream per page, URI link annotations, Info.
 * Line k (from 0) of a page has its baseline at y = 706 - 14k, x = 72. */
export function buildPdf(spec: PdfSpec): Uint8Array {
  const objects: (string | Buffer)[] = [];
  const add = (body: string | Buffer): number => objects.push(body);
  const catalog = add('');
  const pagesObj = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  for (const page of spec.pages) {
    const lines = page.text ? page.text.split('\n') : [];
    let image = 0;
    if (page.imageBytes) {
      const side = Math.max(1, Math.floor(Math.sqrt(page.imageBytes)));
      const size = side * side;
      image = add(Buffer.concat([latin1(`<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${size} >>\nstream\n`), Buffer.alloc(size, 0x80 + (objects.length % 64)), latin1('\nendstream')]));
    }
    const ops = [...(image ? ['q 612 0 0 792 0 0 cm /Im1 Do Q'] : []), ...(lines.length ? ['BT', '/F1 12 Tf', '14 TL', '72 720 Td', ...lines.map((l) => `${pdfString(l)} '`), 'ET'] : [])].join('\n');
    const stream = add(`<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`);
    const annots = (page.links ?? []).map((l, i) => {
      const r = l.rect ?? [72, 600 - i * 20, 300, 615 - i * 20];
      return add(`<< /Type /Annot /Subtype /Link /Rect [${r.join(' ')}] /Border [0 0 0] /A << /S /URI /URI ${pdfString(l.uri)} >> >>`);
    });
    pageIds.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >>${image ? ` /XObject << /Im1 ${image} 0 R >>` : ''} >> /Contents ${stream} 0 R${annots.length ? ` /Annots [${annots.map((a) => `${a} 0 R`).join(' ')}]` : ''} >>`));
  }
  for (let i = 0; i < (spec.padding ?? 0); i++) {
    // An image XObject nobody draws: bulk that a text extractor must not decode.
    const size = 1 << 20;
    add(Buffer.concat([latin1(`<< /Type /XObject /Subtype /Image /Width 1024 /Height 1024 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${size} >>\nstream\n`), Buffer.alloc(size, i % 251), latin1('\nendstream')]));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R${spec.language ? ` /Lang ${pdfString(spec.language)}` : ''} >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${pageIds.map((p) => `${p} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  const info: string[] = [];
  if (spec.title) info.push(`/Title ${pdfString(spec.title)}`);
  if (spec.author) info.push(`/Author ${pdfString(spec.author)}`);
  if (spec.created) info.push(`/CreationDate ${pdfString(spec.created)}`);
  if (spec.modified) info.push(`/ModDate ${pdfString(spec.modified)}`);
  const infoId = add(`<< ${info.join(' ')} >>`);
  let encryptId = 0;
  if (spec.encrypted) {
    // RC4 40-bit, a user password hash that the empty password does not produce.
    const o = 'a'.repeat(64);
    const u = 'b'.repeat(64);
    encryptId = add(`<< /Filter /Standard /V 1 /R 2 /O <${o}> /U <${u}> /P -44 >>`);
  }
  const chunks: Buffer[] = [latin1('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n')];
  let offset = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    const chunk = Buffer.concat([latin1(`${i + 1} 0 obj\n`), typeof body === 'string' ? latin1(body) : body, latin1('\nendobj\n')]);
    offsets.push(offset);
    offset += chunk.length;
    chunks.push(chunk);
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  const id = '<0123456789abcdef0123456789abcdef>';
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${infoId} 0 R${encryptId ? ` /Encrypt ${encryptId} 0 R` : ''} /ID [${id} ${id}] >>\nstartxref\n${offset}\n%%EOF\n`;
  chunks.push(latin1(xref + trailer));
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * A one-page PDF whose content stream is a deflate bomb: about `inflatedBytes` of path operators
 * (no text) compressed about 1000:1. pdf.js decodes a content stream whole into one growing buffer.
 */
export function buildPdfBomb(inflatedBytes: number): Uint8Array {
  const unit = latin1('0 0 m 1 1 l S\n');
  const raw = Buffer.alloc(inflatedBytes - (inflatedBytes % unit.length));
  for (let i = 0; i < raw.length; i += unit.length) unit.copy(raw, i);
  const packed = deflateSync(raw, { level: 9 });
  const objects = [
    latin1('<< /Type /Catalog /Pages 2 0 R >>'),
    latin1('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    latin1('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> /Contents 4 0 R >>'),
    Buffer.concat([latin1(`<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`), packed, latin1('\nendstream')]),
  ];
  const chunks: Buffer[] = [latin1('%PDF-1.4\n')];
  let offset = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    const chunk = Buffer.concat([latin1(`${i + 1} 0 obj\n`), body, latin1('\nendobj\n')]);
    offsets.push(offset);
    offset += chunk.length;
    chunks.push(chunk);
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  chunks.push(latin1(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

export interface OfficeSpec {
  title: string;
  author?: string;
  created?: string;
  modified?: string;
  language?: string;
  /** Paragraphs (DOCX, ODT), cells of one row each (XLSX, ODS) or slides (PPTX, ODP). */
  body: string[];
  /** External hyperlinks, each its own paragraph / cell / slide run. */
  links?: { url: string; text: string }[];
}

const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function coreXml(spec: OfficeSpec): string {
  return `${XML_DECL}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`
    + `<dc:title>${esc(spec.title)}</dc:title>${spec.author ? `<dc:creator>${esc(spec.author)}</dc:creator>` : ''}`
    + `${spec.language ? `<dc:language>${spec.language}</dc:language>` : ''}`
    + `${spec.created ? `<dcterms:created xsi:type="dcterms:W3CDTF">${spec.created}</dcterms:created>` : ''}`
    + `${spec.modified ? `<dcterms:modified xsi:type="dcterms:W3CDTF">${spec.modified}</dcterms:modified>` : ''}</cp:coreProperties>`;
}

function contentTypes(main: string, mainType: string, extra = ''): string {
  return `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>`
    + `<Override PartName="/${main}" ContentType="${mainType}"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>${extra}</Types>`;
}

function rels(items: { id: string; type: string; target: string; external?: boolean }[]): string {
  return `${XML_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.map((r) => `<Relationship Id="${r.id}" Type="${r.type}" Target="${esc(r.target)}"${r.external ? ' TargetMode="External"' : ''}/>`).join('')}</Relationships>`;
}

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const HYPERLINK = `${REL}/hyperlink`;

function packageRels(main: string): string {
  return rels([
    { id: 'rId1', type: `${REL}/officeDocument`, target: main },
    { id: 'rId2', type: 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties', target: 'docProps/core.xml' },
  ]);
}

function zip(files: Record<string, string | Uint8Array>, order?: string[]): Uint8Array {
  const z: Zippable = {};
  for (const name of order ?? Object.keys(files)) {
    const v = files[name]!;
    z[name] = [typeof v === 'string' ? strToU8(v) : v, name === 'mimetype' ? { level: 0 } : {}];
  }
  return zipSync(z);
}

export function buildDocx(spec: OfficeSpec): Uint8Array {
  const links = spec.links ?? [];
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const body = spec.body.map((p) => `<w:p><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join('')
    + links.map((l, i) => `<w:p><w:r><w:t xml:space="preserve">See </w:t></w:r><w:hyperlink r:id="rIdL${i}"><w:r><w:t>${esc(l.text)}</w:t></w:r></w:hyperlink></w:p>`).join('');
  return zip({
    '[Content_Types].xml': contentTypes('word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml'),
    '_rels/.rels': packageRels('word/document.xml'),
    'docProps/core.xml': coreXml(spec),
    'word/document.xml': `${XML_DECL}<w:document ${W}><w:body>${body}</w:body></w:document>`,
    'word/_rels/document.xml.rels': rels(links.map((l, i) => ({ id: `rIdL${i}`, type: HYPERLINK, target: l.url, external: true }))),
  });
}

export function buildXlsx(spec: OfficeSpec): Uint8Array {
  const links = spec.links ?? [];
  const strings = [...spec.body, ...links.map((l) => l.text)];
  const cells = strings.map((_, i) => `<c r="${String.fromCharCode(65 + i)}1" t="s"><v>${i}</v></c>`).join('');
  const S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const hyperlinks = links.length ? `<hyperlinks>${links.map((l, i) => `<hyperlink ref="${String.fromCharCode(65 + spec.body.length + i)}1" r:id="rIdL${i}" display="${esc(l.text)}"/>`).join('')}</hyperlinks>` : '';
  return zip({
    '[Content_Types].xml': contentTypes('xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'),
    '_rels/.rels': packageRels('xl/workbook.xml'),
    'docProps/core.xml': coreXml(spec),
    'xl/workbook.xml': `${XML_DECL}<workbook ${S}><sheets><sheet name="Figures" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': rels([{ id: 'rId1', type: `${REL}/worksheet`, target: 'worksheets/sheet1.xml' }, { id: 'rId2', type: `${REL}/sharedStrings`, target: 'sharedStrings.xml' }]),
    'xl/sharedStrings.xml': `${XML_DECL}<sst ${S} count="${strings.length}">${strings.map((s) => `<si><t>${esc(s)}</t></si>`).join('')}</sst>`,
    'xl/worksheets/sheet1.xml': `${XML_DECL}<worksheet ${S}><sheetData><row r="1">${cells}</row><row r="2"><c r="A2"><v>42</v></c></row></sheetData>${hyperlinks}</worksheet>`,
    'xl/worksheets/_rels/sheet1.xml.rels': rels(links.map((l, i) => ({ id: `rIdL${i}`, type: HYPERLINK, target: l.url, external: true }))),
  });
}

export function buildPptx(spec: OfficeSpec): Uint8Array {
  const links = spec.links ?? [];
  const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
  const files: Record<string, string> = {
    '[Content_Types].xml': contentTypes('ppt/presentation.xml', 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml'),
    '_rels/.rels': packageRels('ppt/presentation.xml'),
    'docProps/core.xml': coreXml(spec),
  };
  const slideRels: { id: string; type: string; target: string }[] = [];
  // Slides listed in reverse file order: the presentation's order must win over file names.
  const ids = spec.body.map((_, i) => i).reverse();
  files['ppt/presentation.xml'] = `${XML_DECL}<p:presentation ${P}><p:sldIdLst>${spec.body.map((_, k) => `<p:sldId id="${256 + k}" r:id="rIdS${ids[k]}"/>`).join('')}</p:sldIdLst></p:presentation>`;
  spec.body.forEach((text, i) => {
    slideRels.push({ id: `rIdS${i}`, type: `${REL}/slide`, target: `slides/slide${i + 1}.xml` });
    const linkRuns = i === 0 ? links.map((l, k) => `<a:p><a:r><a:rPr lang="en-US"><a:hlinkClick r:id="rIdL${k}"/></a:rPr><a:t>${esc(l.text)}</a:t></a:r></a:p>`).join('') : '';
    files[`ppt/slides/slide${i + 1}.xml`] = `${XML_DECL}<p:sld ${P}><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>${esc(text)}</a:t></a:r></a:p>${linkRuns}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
    files[`ppt/slides/_rels/slide${i + 1}.xml.rels`] = rels(i === 0 ? links.map((l, k) => ({ id: `rIdL${k}`, type: HYPERLINK, target: l.url, external: true })) : []);
  });
  files['ppt/_rels/presentation.xml.rels'] = rels(slideRels);
  return zip(files);
}

export type OdfKind = 'text' | 'spreadsheet' | 'presentation';

export function buildOdf(kind: OdfKind, spec: OfficeSpec): Uint8Array {
  const links = spec.links ?? [];
  const NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" office:version="1.3"';
  const linkParas = links.map((l) => `<text:p>See <text:a xlink:type="simple" xlink:href="${esc(l.url)}">${esc(l.text)}</text:a></text:p>`).join('');
  let body: string;
  if (kind === 'text') body = `<office:text>${spec.body.map((p, i) => (i === 0 ? `<text:h text:outline-level="1">${esc(p)}</text:h>` : `<text:p>${esc(p)}</text:p>`)).join('')}${linkParas}</office:text>`;
  else if (kind === 'spreadsheet') body = `<office:spreadsheet><table:table table:name="Figures"><table:table-row>${spec.body.map((c) => `<table:table-cell office:value-type="string"><text:p>${esc(c)}</text:p></table:table-cell>`).join('')}</table:table-row><table:table-row><table:table-cell>${linkParas}</table:table-cell></table:table-row></table:table></office:spreadsheet>`;
  else body = `<office:presentation>${spec.body.map((s, i) => `<draw:page draw:name="page${i + 1}"><draw:frame><draw:text-box><text:p>${esc(s)}</text:p>${i === 0 ? linkParas : ''}</draw:text-box></draw:frame></draw:page>`).join('')}</office:presentation>`;
  const meta = `${XML_DECL}<office:document-meta ${NS}><office:meta><dc:title>${esc(spec.title)}</dc:title>${spec.author ? `<meta:initial-creator>${esc(spec.author)}</meta:initial-creator>` : ''}`
    + `${spec.created ? `<meta:creation-date>${spec.created}</meta:creation-date>` : ''}${spec.modified ? `<dc:date>${spec.modified}</dc:date>` : ''}${spec.language ? `<dc:language>${spec.language}</dc:language>` : ''}</office:meta></office:document-meta>`;
  const mime = `application/vnd.oasis.opendocument.${kind}`;
  return zip({
    mimetype: mime,
    'META-INF/manifest.xml': `${XML_DECL}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mime}"/></manifest:manifest>`,
    'meta.xml': meta,
    'content.xml': `${XML_DECL}<office:document-content ${NS}><office:automatic-styles/><office:body>${body}</office:body></office:document-content>`,
  }, ['mimetype', 'META-INF/manifest.xml', 'meta.xml', 'content.xml']);
}

export function buildEpub(spec: OfficeSpec): Uint8Array {
  const links = spec.links ?? [];
  const chapters = spec.body.map((p, i) => `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter ${i + 1}</title><style>p { color: red }</style></head><body><h1>Chapter ${i + 1}</h1><p>${esc(p)}</p>`
    + `${i === 0 ? links.map((l) => `<p><a href="${esc(l.url)}">${esc(l.text)}</a></p>`).join('') + '<p><a href="chapter2.xhtml">next chapter</a></p>' : ''}</body></html>`);
  const files: Record<string, string> = {
    mimetype: 'application/epub+zip',
    'META-INF/container.xml': '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    'OEBPS/content.opf': `<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">`
      + `<dc:identifier id="uid">urn:uuid:1</dc:identifier><dc:title>${esc(spec.title)}</dc:title>${spec.author ? `<dc:creator>${esc(spec.author)}</dc:creator>` : ''}${spec.language ? `<dc:language>${spec.language}</dc:language>` : ''}`
      + `${spec.created ? `<dc:date>${spec.created}</dc:date>` : ''}${spec.modified ? `<meta property="dcterms:modified">${spec.modified}</meta>` : ''}</metadata>`
      + `<manifest>${chapters.map((_, i) => `<item id="c${i + 1}" href="chapter${i + 1}.xhtml" media-type="application/xhtml+xml"/>`).join('')}</manifest>`
      + `<spine>${chapters.map((_, i) => `<itemref idref="c${i + 1}"/>`).join('')}</spine></package>`,
  };
  chapters.forEach((c, i) => (files[`OEBPS/chapter${i + 1}.xhtml`] = c));
  return zip(files, Object.keys(files));
}

export function buildRtf(spec: OfficeSpec): Uint8Array {
  const rtfText = (s: string) => [...s].map((ch) => {
    const code = ch.charCodeAt(0);
    if (ch === '\\' || ch === '{' || ch === '}') return `\\${ch}`;
    return code > 127 ? `\\u${code > 32767 ? code - 65536 : code}?` : ch;
  }).join('');
  const info = `{\\info{\\title ${rtfText(spec.title)}}${spec.author ? `{\\author ${rtfText(spec.author)}}` : ''}{\\creatim\\yr2024\\mo3\\dy5\\hr10\\min30}{\\revtim\\yr2025\\mo1\\dy2\\hr3\\min4}}`;
  const paras = spec.body.map((p) => `{\\pard ${rtfText(p)}\\par}`).join('\n');
  const links = (spec.links ?? []).map((l) => `{\\pard See {\\field{\\*\\fldinst{HYPERLINK "${l.url}"}}{\\fldrslt{\\ul ${rtfText(l.text)}}}}\\par}`).join('\n');
  const rtf = `{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\fswiss Helvetica;}}{\\colortbl;\\red0\\green0\\blue0;}${info}{\\*\\generator Hand;}\n${paras}\n${links}\n}`;
  return new Uint8Array(Buffer.from(rtf, 'latin1'));
}

/** A DOCX whose document.xml inflates to `expandedBytes` of padding: a zip bomb in Office clothing. */
export function buildZipBombDocx(expandedBytes: number): Uint8Array {
  const filler = new Uint8Array(expandedBytes).fill(0x20);
  const head = strToU8(`${XML_DECL}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>`);
  const doc = new Uint8Array(head.length + filler.length);
  doc.set(head);
  doc.set(filler, head.length);
  return zip({
    '[Content_Types].xml': contentTypes('word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml'),
    '_rels/.rels': packageRels('word/document.xml'),
    'word/document.xml': doc,
  });
}

/**
 * PDF on Mozilla's pdf.js (pdfjs-dist, legacy build for Node), as Tika's PDFParser: the text of every
 * page in content-stream order (line ends where pdf.js sees them, pages by blank line), the Info
 * dictionary and XMP metadata (title, author, creation and modification dates as ISO 8601, subject,
 * keywords), the catalog's /Lang, and URI link annotations as outlinks anchored by the text drawn
 * inside their rectangle. pdf.js never decodes images to read text, so a PDF of images costs its
 * bytes, not its pixels. A PDF that needs a user password, or that pdf.js cannot repair, is a
 * DocumentError, and so is a PDF with pages but no text at all (scanned or image-only: nutch-ts does no
 * OCR; Tika would give an empty success, which indexes nothing and hides the cause). pdf.js is imported on the first PDF only: HTML-only workers never load it.
 */
import { DocumentBuilder, DocumentError, MetaKeys, type ExtractedDocument } from './document.js';
import type { ExtractLimits } from './limits.js';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | null = null;

interface TextItem {
  str: string;
  hasEOL?: boolean;
  transform: number[];
}

const INFO_NAMES: Record<string, string> = {
  Title: MetaKeys.TITLE,
  Author: MetaKeys.CREATOR,
  Subject: MetaKeys.SUBJECT,
  Keywords: MetaKeys.KEYWORDS,
  Creator: 'xmp:CreatorTool',
  Producer: 'pdf:Producer',
};

/** How often the decoded-bytes watch looks at this thread's buffers while pdf.js works. */
const WATCH_MS = 5;

export async function extractPdf(bytes: Uint8Array, limits: ExtractLimits): Promise<ExtractedDocument> {
  const lib = await (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));
  // pdf.js decodes whole streams into growing buffers: a 1 MB PDF whose content stream is a deflate
  // bomb held 1.2 GB. It runs in this thread (no pdf.js worker in Node) and yields between slices of
  // work, so a timer can see this thread's ArrayBuffer bytes grow past the document's own and stop it.
  const baseline = process.memoryUsage().arrayBuffers + bytes.length;
  let overBudget = 0;
  let abort!: (err: Error) => void;
  const aborted = new Promise<never>((_, reject) => (abort = reject));
  aborted.catch(() => {});
  // pdf.js takes ownership of (and detaches) the buffer it is given: hand it a copy.
  const task = lib.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  const watch = setInterval(() => {
    const held = process.memoryUsage().arrayBuffers - baseline;
    if (held <= limits.maxPdfDecodedBytes || overBudget) return;
    overBudget = held;
    // A destroyed document's pending calls never settle: answer now. What pdf.js still holds goes
    // with the worker, which the pool replaces when it is left holding this much (parse-worker.ts).
    abort(new DocumentError(`the PDF's decoded streams grew past tika.pdf.max.bytes (${mib(held)} MiB beyond the ${mib(bytes.length)} MiB document: a compression bomb or an oversized document)`, 'bomb'));
    void task.destroy().catch(() => {});
  }, WATCH_MS);
  const reading = readPdf(task, bytes, limits);
  reading.catch(() => {});
  try {
    return await Promise.race([reading, aborted]);
  } finally {
    clearInterval(watch);
  }
}

const mib = (n: number) => (n / 1048576).toFixed(1);

async function readPdf(task: ReturnType<PdfJs['getDocument']>, bytes: Uint8Array, limits: ExtractLimits): Promise<ExtractedDocument> {
  let pdf;
  try {
    pdf = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => {});
    const e = err as { name?: string; message?: string };
    if (e.name === 'PasswordException') throw new DocumentError('the PDF is encrypted and needs a password', 'encrypted');
    if (e.name === 'InvalidPDFException') throw new DocumentError(`not a readable PDF (${e.message})`, 'invalid');
    throw new DocumentError(`the PDF cannot be read: ${e.message ?? err}`, 'invalid');
  }
  try {
    const doc = new DocumentBuilder(limits.maxTextChars);
    const { info, metadata } = (await pdf.getMetadata()) as unknown as { info: Record<string, unknown>; metadata: { get(name: string): unknown } | null };
    for (const [name, key] of Object.entries(INFO_NAMES)) if (typeof info[name] === 'string') doc.setMeta(key, info[name] as string);
    if (typeof info.CreationDate === 'string') doc.setMeta(MetaKeys.CREATED, pdfDate(info.CreationDate));
    if (typeof info.ModDate === 'string') doc.setMeta(MetaKeys.MODIFIED, pdfDate(info.ModDate));
    if (typeof info.Language === 'string') doc.setMeta(MetaKeys.LANGUAGE, info.Language);
    if (metadata) {
      for (const name of ['dc:title', 'dc:creator', 'dc:language']) {
        const v = metadata.get(name);
        const key = name === 'dc:title' ? MetaKeys.TITLE : name === 'dc:creator' ? MetaKeys.CREATOR : MetaKeys.LANGUAGE;
        if (typeof v === 'string' && !doc.meta[key]) doc.setMeta(key, v);
        else if (Array.isArray(v) && !doc.meta[key]) for (const x of v) if (typeof x === 'string') doc.setMeta(key, x);
      }
    }
    doc.setMeta(MetaKeys.PAGE_COUNT, String(pdf.numPages));
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const items = content.items.filter((x): x is TextItem & typeof x => 'str' in x) as unknown as TextItem[];
      for (const item of items) {
        doc.append(item.str);
        if (item.hasEOL) doc.newline();
      }
      doc.newline();
      doc.append('\n');
      for (const a of await page.getAnnotations()) {
        const url = (a.url ?? a.unsafeUrl) as string | undefined;
        if (a.subtype !== 'Link' || typeof url !== 'string') continue;
        doc.link(url, anchorIn(items, a.rect as number[] | undefined) || (a.overlaidText as string | undefined) || '');
      }
      page.cleanup();
    }
    const built = doc.build();
    if (pdf.numPages > 0 && !built.text) throw new DocumentError(`the PDF has ${pdf.numPages} page(s) and no text: scanned or image-only (${(bytes.length / 1048576).toFixed(1)} MB; parse-tika does not OCR)`, 'no-text');
    return built;
  } finally {
    await pdf.destroy().catch(() => {});
  }
}

/** The text whose baseline origin lies inside the annotation's rectangle (a little slack for descenders). */
function anchorIn(items: TextItem[], rect: number[] | undefined): string {
  if (!rect || rect.length < 4) return '';
  const [x1, y1, x2, y2] = [Math.min(rect[0]!, rect[2]!), Math.min(rect[1]!, rect[3]!), Math.max(rect[0]!, rect[2]!), Math.max(rect[1]!, rect[3]!)];
  const slack = 2;
  return items
    .filter((t) => {
      const x = t.transform[4]!;
      const y = t.transform[5]!;
      return x >= x1 - slack && x <= x2 + slack && y >= y1 - slack && y <= y2 + slack;
    })
    .map((t) => t.str)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** PDF date `D:YYYYMMDDHHmmSSOHH'mm'` as ISO 8601 (Tika's form); the raw value when it does not parse. */
export function pdfDate(raw: string): string {
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz])|([+-])(\d{2})'?(\d{2})?'?)?/.exec(raw.trim());
  if (!m) return raw;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', z, sign, oh, om = '00'] = m;
  const zone = z ? 'Z' : sign ? `${sign}${oh}:${om}` : '';
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`;
}

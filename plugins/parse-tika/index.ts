/**
 * parse-tika: Nutch's TikaParser job without Tika. One Parser for PDF, Office Open XML, OpenDocument,
 * EPUB, RTF and plain XML: it picks the format from the content type (resolved from the magic bytes
 * when the server sent none or a generic one), runs that format's extractor and returns text, title,
 * outlinks with anchors and the document's metadata under Tika's names in parse metadata.
 * A document that cannot be read is a FAILED parse whose status says why (encrypted, truncated,
 * corrupt, bomb-like, unsupported kind); nothing escapes to the worker. The extractors are imported
 * on first use, so a worker that only ever parses HTML never loads pdf.js.
 */
import {
  ParseStatusMinor, createParseData, decodeXmlText, detectContentType, failedParse, isGenericContentType, singleParseResult,
  type Content, type ParseResult, type Parser, type PluginContext,
} from '../../sdk/plugin.js';
import { DocumentError, type ExtractedDocument } from './document.js';
import type { ExtractLimits } from './limits.js';

export const TIKA_PARSE_FAILURE = 'tika.parse.failure';

type Format = 'pdf' | 'docx' | 'xlsx' | 'pptx' | 'odf' | 'epub' | 'rtf' | 'xml';

/** The format parse-tika reads for a content type (parameters ignored), or null. */
export function formatOf(contentType: string): Format | null {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/pdf' || type === 'application/x-pdf') return 'pdf';
  if (/^application\/vnd\.openxmlformats-officedocument\.wordprocessingml\.|^application\/vnd\.ms-word\.(document|template)\.macroenabled\.12$/.test(type)) return 'docx';
  if (/^application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.|^application\/vnd\.ms-excel\.(sheet|template)\.macroenabled\.12$/.test(type)) return 'xlsx';
  if (/^application\/vnd\.openxmlformats-officedocument\.presentationml\.|^application\/vnd\.ms-powerpoint\.(presentation|slideshow|template)\.macroenabled\.12$/.test(type)) return 'pptx';
  if (type.startsWith('application/vnd.oasis.opendocument.')) return 'odf';
  if (type === 'application/epub+zip') return 'epub';
  if (type === 'application/rtf' || type === 'text/rtf' || type === 'application/x-rtf') return 'rtf';
  if (type === 'text/xml' || type === 'application/xml' || /^[a-z]+\/[\w.+-]*\+xml$/.test(type)) return 'xml';
  return null;
}

export class TikaParser implements Parser {
  private readonly limits: ExtractLimits;

  constructor(ctx: PluginContext) {
    const maxChars = ctx.conf.getInt('tika.text.max.chars', 10485760);
    const pdfBytes = ctx.conf.getInt('tika.pdf.max.bytes', 67108864);
    this.limits = {
      maxTextChars: maxChars < 0 ? Number.MAX_SAFE_INTEGER : maxChars,
      maxExpandedBytes: ctx.conf.getInt('tika.zip.max.bytes', 67108864),
      maxExpansionRatio: ctx.conf.getInt('tika.zip.max.ratio', 100),
      maxPdfDecodedBytes: pdfBytes < 0 ? Number.MAX_SAFE_INTEGER : pdfBytes,
    };
  }

  async getParse(content: Content): Promise<ParseResult> {
    const declared = content.contentType;
    const type = isGenericContentType(declared) ? detectContentType(content.content) : declared;
    const format = formatOf(type);
    if (!format) {
      return failure(content, new DocumentError(`parse-tika does not read content type "${type || 'unknown'}"`, 'unsupported'));
    }
    let doc: ExtractedDocument;
    try {
      doc = await this.extract(format, content.content, type);
    } catch (err) {
      if (err instanceof DocumentError) return failure(content, err);
      // A bug or a library failure on hostile input: still a failed parse with the reason, never a crash.
      return failure(content, new DocumentError(`${format} extraction failed: ${(err as Error)?.message ?? err}`, 'invalid'));
    }
    const parseMeta: Record<string, string[]> = { ...doc.meta, 'Content-Type': [type.split(';')[0]!.trim()] };
    return singleParseResult(content.url, {
      text: doc.text,
      data: createParseData({
        title: doc.title,
        outlinks: doc.links.map((l) => ({ toUrl: l.url, anchor: l.anchor })),
        contentMeta: content.metadata,
        parseMeta,
      }),
      isCanonical: true,
    });
  }

  private async extract(format: Format, bytes: Uint8Array, type: string): Promise<ExtractedDocument> {
    switch (format) {
      case 'pdf':
        return (await import('./pdf-extractor.js')).extractPdf(bytes, this.limits);
      case 'docx':
      case 'xlsx':
      case 'pptx':
        return (await import('./ooxml-extractor.js')).extractOoxml(bytes, format, this.limits);
      case 'odf':
        return (await import('./odf-extractor.js')).extractOdf(bytes, this.limits);
      case 'epub':
        return (await import('./epub-extractor.js')).extractEpub(bytes, this.limits);
      case 'rtf':
        return (await import('./rtf-extractor.js')).extractRtf(bytes, this.limits);
      case 'xml':
        return (await import('./xml-extractor.js')).extractXml(decodeXmlText(bytes, type), this.limits);
    }
  }
}

/** XML text: a BOM, then the Content-Type charset, then the XML declaration's encoding, then UTF-8. */
function failure(content: Content, err: DocumentError): ParseResult {
  const parse = failedParse(`parse-tika: ${err.message} (${content.url.slice(0, 300)})`, err.minorCode ?? ParseStatusMinor.FAILED_EXCEPTION);
  parse.data.parseMeta = { [TIKA_PARSE_FAILURE]: [err.failure] };
  return singleParseResult(content.url, parse);
}

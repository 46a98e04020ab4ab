/**
 * What every format extractor returns, and the one error they throw for a document that cannot be
 * read (encrypted, truncated, corrupt, bomb-like). Metadata keys are Tika's (dc:title, dc:creator,
 * dcterms:created, dcterms:modified, dc:language), so index-metadata settings written for Nutch's
 * parse-tika find them.
 */
import { NutchError, ParseStatusMinor } from '../../sdk/plugin.js';

export interface ExtractedLink {
  url: string;
  anchor: string;
}

export interface ExtractedDocument {
  text: string;
  title: string;
  /** Tika metadata names -> values; only what the document states. */
  meta: Record<string, string[]>;
  links: ExtractedLink[];
}

export type DocumentFailure = 'encrypted' | 'truncated' | 'invalid' | 'bomb' | 'unsupported' | 'no-text';

export class DocumentError extends NutchError {
  constructor(message: string, readonly failure: DocumentFailure) {
    super('NUTCH_PARSE_DOCUMENT_FAILED', message);
    this.name = 'DocumentError';
  }

  /** The ParseStatus minor code Nutch would give: truncated and invalid formats have their own. */
  get minorCode(): number {
    if (this.failure === 'truncated') return ParseStatusMinor.FAILED_TRUNCATED;
    if (this.failure === 'invalid') return ParseStatusMinor.FAILED_INVALID_FORMAT;
    return ParseStatusMinor.FAILED_EXCEPTION;
  }
}

export const MetaKeys = {
  TITLE: 'dc:title',
  CREATOR: 'dc:creator',
  CREATED: 'dcterms:created',
  MODIFIED: 'dcterms:modified',
  LANGUAGE: 'dc:language',
  SUBJECT: 'dc:subject',
  DESCRIPTION: 'dc:description',
  PUBLISHER: 'dc:publisher',
  KEYWORDS: 'meta:keyword',
  PAGE_COUNT: 'xmpTPg:NPages',
} as const;

/** Collects text with bounded size and whitespace tidied, and the document's metadata and links. */
export class DocumentBuilder {
  private readonly parts: string[] = [];
  private length = 0;
  title = '';
  readonly meta: Record<string, string[]> = {};
  readonly links: ExtractedLink[] = [];

  constructor(private readonly maxChars: number) {}

  /** Appends text; past the limit the rest is dropped (the text is cut, the parse still succeeds). */
  append(s: string): void {
    if (!s || this.length >= this.maxChars) return;
    const piece = this.length + s.length > this.maxChars ? s.slice(0, this.maxChars - this.length) : s;
    this.parts.push(piece);
    this.length += piece.length;
  }

  /** A paragraph or line break. */
  newline(): void {
    if (this.parts.length && !this.parts[this.parts.length - 1]!.endsWith('\n')) this.append('\n');
  }

  setMeta(key: string, value: string | undefined | null): void {
    const v = value?.replace(/\s+/g, ' ').trim();
    if (!v) return;
    const list = (this.meta[key] ??= []);
    if (!list.includes(v)) list.push(v);
  }

  link(url: string | undefined | null, anchor = ''): void {
    const u = url?.trim();
    if (u) this.links.push({ url: u, anchor: anchor.replace(/\s+/g, ' ').trim() });
  }

  build(): ExtractedDocument {
    const text = this.parts.join('').replace(/[ \t\f\r\u00a0]+/g, ' ').replace(/ ?\n ?/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
    const title = (this.title || this.meta[MetaKeys.TITLE]?.[0] || '').replace(/\s+/g, ' ').trim();
    if (title && !this.meta[MetaKeys.TITLE]) this.meta[MetaKeys.TITLE] = [title];
    return { text, title, meta: this.meta, links: this.links };
  }
}

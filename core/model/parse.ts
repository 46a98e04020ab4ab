/** Parse, ParseData, ParseText, ParseStatus, Outlink, ParseResult: what a Parser produces. */
import type { Metadata } from './metadata.js';

export const ParseStatusCode = {
  NOTPARSED: 0,
  SUCCESS: 1,
  FAILED: 2,
} as const;

/** Minor codes, as Nutch's ParseStatus. */
export const ParseStatusMinor = {
  SUCCESS_OK: 0,
  SUCCESS_REDIRECT: 100,
  FAILED_EXCEPTION: 200,
  FAILED_TRUNCATED: 202,
  FAILED_INVALID_FORMAT: 203,
  FAILED_MISSING_PARTS: 204,
  FAILED_MISSING_CONTENT: 205,
} as const;

export interface ParseStatus {
  majorCode: number;
  minorCode: number;
  /** For SUCCESS_REDIRECT: [target, delay]; for failures: the message. */
  args: string[];
}

export function parseStatus(majorCode: number, minorCode = 0, ...args: string[]): ParseStatus {
  return { majorCode, minorCode, args };
}

export function isParseSuccess(s: ParseStatus): boolean {
  return s.majorCode === ParseStatusCode.SUCCESS;
}

export interface Outlink {
  toUrl: string;
  anchor: string;
  metadata?: Metadata;
}

export interface ParseData {
  status: ParseStatus;
  title: string;
  outlinks: Outlink[];
  /** Protocol metadata of the content (headers). */
  contentMeta: Metadata;
  /** Metadata the parser and parse filters produced (meta tags, robots directives, …). */
  parseMeta: Metadata;
}

export interface ParseText {
  text: string;
}

export interface Parse {
  text: string;
  data: ParseData;
  /** False for sub-documents a parser emits besides the canonical one (archives, feeds). */
  isCanonical: boolean;
}

/** A parser's output: the parse of the content's URL and of any sub-documents, keyed by URL. */
export interface ParseResult {
  url: string;
  parses: Record<string, Parse>;
}

export function createParseData(init: Partial<ParseData> = {}): ParseData {
  return {
    status: parseStatus(ParseStatusCode.SUCCESS),
    title: '',
    outlinks: [],
    contentMeta: {},
    parseMeta: {},
    ...init,
  };
}

export function singleParseResult(url: string, parse: Parse): ParseResult {
  return { url, parses: { [url]: parse } };
}

export function failedParse(message: string, minor: number = ParseStatusMinor.FAILED_EXCEPTION): Parse {
  return {
    text: '',
    data: createParseData({ status: parseStatus(ParseStatusCode.FAILED, minor, message) }),
    isCanonical: true,
  };
}

/** parseMeta keys, as Nutch's Metadata / Nutch constants. */
export const ParseMeta = {
  /** Set to "true" when meta robots forbids indexing. */
  ROBOTS_NOINDEX: 'robots.noindex',
  ROBOTS_NOFOLLOW: 'robots.nofollow',
  ROBOTS_NOARCHIVE: 'robots.noarchive',
  /** Hex signature of the content, as Nutch's nutch.content.digest. */
  SIGNATURE: 'nutch.content.digest',
  SEGMENT_NAME: 'nutch.segment.name',
  SCORE: 'nutch.crawl.score',
  CHARSET: 'CharEncodingForConversion',
  /**
   * How many outlinks the page had beyond parser.outlinks.ceiling (only counted, never collected), set
   * by the parser that stopped collecting or by the parse worker that cut the list. nutch-ts only.
   */
  OUTLINKS_OVER_CEILING: 'nutch.parse.outlinks.overCeiling',
} as const;

/** Outlinks per page held at most (parser.outlinks.ceiling) unless configured otherwise. */
export const DEFAULT_OUTLINKS_CEILING = 100_000;

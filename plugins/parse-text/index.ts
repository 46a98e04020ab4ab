/**
 * parse-text: Nutch's TextParser. The text is the content decoded with the Content-Type charset (a BOM
 * wins; UTF-8 otherwise, as Nutch's platform default), no title, and the URLs written in the text as
 * outlinks (Nutch's OutlinkExtractor, restricted to http, https and ftp).
 */
import { createParseData, singleParseResult, type Content, type Outlink, type ParseResult, type Parser } from '../../sdk/plugin.js';

const URL_IN_TEXT = /\b(?:https?|ftp):\/\/[^\s<>"'`{}|\\^[\]]{1,4096}/gi;
const TRAILING_PUNCTUATION = /[.,;:!?)]+$/;

export class TextParser implements Parser {
  getParse(content: Content): ParseResult {
    const text = decodeText(content);
    return singleParseResult(content.url, {
      text,
      data: createParseData({ title: '', outlinks: extractOutlinks(text), contentMeta: content.metadata }),
      isCanonical: true,
    });
  }
}

function decodeText(content: Content): string {
  const bytes = content.content;
  let encoding = 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) encoding = 'utf-16be';
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = 'utf-16le';
  else {
    const m = /charset\s*=\s*["']?([^;"'\s,]+)/i.exec(content.contentType);
    if (m) encoding = m[1]!;
  }
  try {
    return new TextDecoder(encoding).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

export function extractOutlinks(text: string): Outlink[] {
  const out: Outlink[] = [];
  for (const m of text.matchAll(URL_IN_TEXT)) {
    const candidate = m[0].replace(TRAILING_PUNCTUATION, '');
    try {
      out.push({ toUrl: new URL(candidate).href, anchor: '' });
    } catch {
      // not a URL after all
    }
  }
  return out;
}

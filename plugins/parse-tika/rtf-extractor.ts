/**
 * RTF, as Tika's RTFParser: a single pass over the control words (no recursion: groups are a stack).
 * Text is decoded through `\ansicpg` (windows-1252 by default) for `\'hh` bytes and from `\uN` with
 * its `\ucN` fallback skipped; `\par`, `\line`, `\row`, `\page` break lines, `\tab` and `\cell` are
 * tabs. The font, colour, style and list tables, pictures, objects and every `{\* …}` destination are
 * skipped. `{\info}` gives title, author, subject, keywords and the creation and revision times;
 * `{\field{\*\fldinst HYPERLINK "url"}{\fldrslt text}}` gives an outlink anchored by its result text.
 *
 * This file is the tokeniser; what each token means is RtfReader's (rtf-reader.ts), which destinations
 * hold what is rtf-destinations.ts, and which control words are text is rtf-control-words.ts.
 */
import { DocumentBuilder, DocumentError, type ExtractedDocument } from './document.js';
import type { ExtractLimits } from './limits.js';
import { RtfReader } from './rtf-reader.js';

/** A control word: up to 32 letters, an optional signed parameter, and the one space that ends it. */
const CONTROL_WORD = /^([a-z]{1,32})(-?\d{1,10})? ?/i;

export function extractRtf(bytes: Uint8Array, limits: ExtractLimits): ExtractedDocument {
  const src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (!/^\s*\{\\rtf/.test(src)) throw new DocumentError('the file does not start with {\\rtf: not an RTF document', 'invalid');
  const reader = new RtfReader(new DocumentBuilder(limits.maxTextChars));
  let i = src.indexOf('{');
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (c === '{' || c === '}') {
      if (c === '{') reader.openGroup();
      else reader.closeGroup();
      i++;
    } else if (c === '\\') {
      const next = src[i + 1];
      if (next === undefined) break;
      if (next === "'") {
        reader.hexByte(src.slice(i + 2, i + 4));
        i += 4;
      } else if (!/[a-z]/i.test(next)) {
        reader.controlSymbol(next);
        i += 2;
      } else {
        const m = CONTROL_WORD.exec(src.slice(i + 1, i + 45))!;
        i += 1 + m[0].length;
        i += reader.controlWord(m[1]!, m[2] === undefined ? undefined : Number(m[2]));
      }
    } else if (c === '\r' || c === '\n') {
      // line breaks in the source are not text; `\par` and friends are
      i++;
    } else {
      // a run of plain characters up to the next control character
      let j = i;
      while (j < n && src[j] !== '\\' && src[j] !== '{' && src[j] !== '}' && src[j] !== '\r' && src[j] !== '\n') j++;
      reader.plainText(src.slice(i, j));
      i = j;
    }
  }
  return reader.finish();
}

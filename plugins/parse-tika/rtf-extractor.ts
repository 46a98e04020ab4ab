/**
 * RTF, as Tika's RTFParser: a single pass over the control words (no recursion: groups are a stack).
 * Text is decoded through `\ansicpg` (windows-1252 by default) for `\'hh` bytes and from `\uN` with
 * its `\ucN` fallback skipped; `\par`, `\line`, `\row`, `\page` break lines, `\tab` and `\cell` are
 * tabs. The font, colour, style and list tables, pictures, objects and every `{\* …}` destination are
 * skipped. `{\info}` gives title, author, subject, keywords and the creation and revision times;
 * `{\field{\*\fldinst HYPERLINK "url"}{\fldrslt text}}` gives an outlink anchored by its result text.
 */
import { DocumentBuilder, DocumentError, MetaKeys, type ExtractedDocument } from './document.js';
import type { ExtractLimits } from './limits.js';

/** Destinations whose content is not document text. */
const SKIPPED_DESTINATIONS = new Set([
  'fonttbl', 'colortbl', 'stylesheet', 'listtable', 'listoverridetable', 'revtbl', 'rsidtbl', 'generator', 'pict', 'object',
  'objdata', 'themedata', 'colorschememapping', 'latentstyles', 'datastore', 'xmlnstbl', 'filetbl', 'header', 'footer',
  'headerl', 'headerr', 'headerf', 'footerl', 'footerr', 'footerf', 'footnote', 'bkmkstart', 'bkmkend', 'nonshppict', 'shppict',
]);
const INFO_FIELDS: Record<string, string> = {
  title: MetaKeys.TITLE, author: MetaKeys.CREATOR, subject: MetaKeys.SUBJECT, keywords: MetaKeys.KEYWORDS, doccomm: MetaKeys.DESCRIPTION,
  operator: 'meta:last-author',
};
const TIME_FIELDS: Record<string, string> = { creatim: MetaKeys.CREATED, revtim: MetaKeys.MODIFIED };

interface Group {
  /** Where the group's text goes: the body, nowhere, an info field, a field instruction or result. */
  sink: 'body' | 'skip' | 'info' | 'fldinst' | 'fldrslt' | 'time';
  key?: string;
  uc: number;
}

export function extractRtf(bytes: Uint8Array, limits: ExtractLimits): ExtractedDocument {
  const src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (!/^\s*\{\\rtf/.test(src)) throw new DocumentError('the file does not start with {\\rtf: not an RTF document', 'invalid');
  const doc = new DocumentBuilder(limits.maxTextChars);
  let decoder = new TextDecoder('windows-1252');
  const stack: Group[] = [];
  let group: Group = { sink: 'body', uc: 1 };
  let pendingBytes: number[] = [];
  let skipChars = 0;
  let info = '';
  let instr = '';
  let link = null as { url: string; text: string } | null;
  let time: Record<string, number> = {};
  /** A group just opened: its first control word may name a destination. */
  let groupStart = false;
  let ignorable = false;

  const flushBytes = () => {
    if (!pendingBytes.length) return;
    emit(decoder.decode(new Uint8Array(pendingBytes)));
    pendingBytes = [];
  };
  const emit = (s: string) => {
    switch (group.sink) {
      case 'body':
        doc.append(s);
        return;
      case 'fldrslt':
        doc.append(s);
        if (link) link.text += s;
        return;
      case 'info':
        info += s;
        return;
      case 'fldinst':
        instr += s;
        return;
      default:
    }
  };
  const enterDestination = (word: string) => {
    if (SKIPPED_DESTINATIONS.has(word)) group.sink = 'skip';
    else if (word === 'info') group.sink = 'skip';
    else if (INFO_FIELDS[word] && stack.some((g) => g.sink === 'skip')) {
      group.sink = 'info';
      group.key = INFO_FIELDS[word];
      info = '';
    } else if (TIME_FIELDS[word]) {
      group.sink = 'time';
      group.key = TIME_FIELDS[word];
      time = {};
    } else if (word === 'fldinst') {
      group.sink = 'fldinst';
      instr = '';
    } else if (word === 'fldrslt') {
      group.sink = 'fldrslt';
      const m = /HYPERLINK\s+(?:\\l\s+)?"([^"]+)"/.exec(instr);
      link = m ? { url: m[1]!, text: '' } : null;
    } else if (ignorable) group.sink = 'skip';
  };

  let i = src.indexOf('{');
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (c === '{') {
      flushBytes();
      stack.push(group);
      group = { sink: group.sink, key: group.key, uc: group.uc };
      groupStart = true;
      ignorable = false;
      i++;
      continue;
    }
    if (c === '}') {
      flushBytes();
      const closing = group;
      if (closing.sink === 'info' && closing.key && (stack[stack.length - 1]?.sink !== 'info')) doc.setMeta(closing.key, info);
      if (closing.sink === 'time' && closing.key && stack[stack.length - 1]?.sink !== 'time' && time.yr) {
        const pad = (v: number | undefined) => String(v ?? 0).padStart(2, '0');
        doc.setMeta(closing.key, `${time.yr}-${pad(time.mo || 1)}-${pad(time.dy || 1)}T${pad(time.hr)}:${pad(time.min)}:${pad(time.sec)}`);
      }
      if (closing.sink === 'fldrslt' && stack[stack.length - 1]?.sink !== 'fldrslt' && link) {
        doc.link(link.url, link.text);
        link = null;
      }
      group = stack.pop() ?? { sink: 'body', uc: 1 };
      groupStart = false;
      i++;
      continue;
    }
    if (c === '\\') {
      const next = src[i + 1];
      if (next === undefined) break;
      if (next === "'") {
        const hex = src.slice(i + 2, i + 4);
        i += 4;
        if (skipChars > 0) {
          skipChars--;
          continue;
        }
        if (/^[0-9a-f]{2}$/i.test(hex)) pendingBytes.push(parseInt(hex, 16));
        continue;
      }
      if (!/[a-z]/i.test(next)) {
        flushBytes();
        i += 2;
        groupStart = false;
        if (next === '*') {
          ignorable = true;
          groupStart = true;
        } else if (next === '~') emit('\u00a0');
        else if (next === '_') emit('-');
        else if (next === '\\' || next === '{' || next === '}') emit(next);
        else if (next === '\n' || next === '\r') emit('\n');
        continue;
      }
      const m = /^([a-z]{1,32})(-?\d{1,10})? ?/i.exec(src.slice(i + 1, i + 45))!;
      i += 1 + m[0].length;
      const word = m[1]!;
      const param = m[2] === undefined ? undefined : Number(m[2]);
      if (word !== 'u') flushBytes();
      if (groupStart) {
        groupStart = false;
        enterDestination(word);
        if (group.sink !== 'body' && group.sink !== 'fldrslt') continue;
      }
      if (group.sink === 'time' && param !== undefined) {
        time[word] = param;
        continue;
      }
      switch (word) {
        case 'ansicpg':
          try {
            decoder = new TextDecoder(`windows-${param}`);
          } catch {
            try {
              decoder = new TextDecoder(`cp${param}`);
            } catch {
              // unknown code page: keep windows-1252
            }
          }
          break;
        case 'uc':
          group.uc = param ?? 1;
          break;
        case 'u':
          flushBytes();
          if (param !== undefined) emit(String.fromCharCode(param < 0 ? param + 65536 : param));
          skipChars = group.uc;
          break;
        case 'par': case 'line': case 'row': case 'page': case 'sect':
          emit('\n');
          break;
        case 'tab': case 'cell':
          emit('\t');
          break;
        case 'emdash': emit('\u2014'); break;
        case 'endash': emit('\u2013'); break;
        case 'bullet': emit('\u2022'); break;
        case 'lquote': emit('\u2018'); break;
        case 'rquote': emit('\u2019'); break;
        case 'ldblquote': emit('\u201c'); break;
        case 'rdblquote': emit('\u201d'); break;
        case 'bin':
          // Binary data of `param` bytes follows: never text.
          i += Math.max(0, param ?? 0);
          break;
        default:
      }
      continue;
    }
    if (c === '\r' || c === '\n') {
      i++;
      continue;
    }
    // A run of plain characters up to the next control character.
    let j = i;
    while (j < n && src[j] !== '\\' && src[j] !== '{' && src[j] !== '}' && src[j] !== '\r' && src[j] !== '\n') j++;
    let run = src.slice(i, j);
    i = j;
    groupStart = false;
    if (skipChars > 0) {
      const cut = Math.min(skipChars, run.length);
      run = run.slice(cut);
      skipChars -= cut;
    }
    if (!run || group.sink === 'skip') continue;
    for (let k = 0; k < run.length; k++) pendingBytes.push(run.charCodeAt(k));
    flushBytes();
  }
  flushBytes();
  return doc.build();
}

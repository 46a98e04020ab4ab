/**
 * The state of one RTF read: the group stack (groups nest, so a stack, not recursion), where the
 * current group's text goes, the bytes waiting for the code page's decoder, and the info field,
 * time or hyperlink a destination is collecting. rtf-extractor.ts tokenises and calls one method
 * per token; this class decides what the token means for the document.
 */
import type { DocumentBuilder, ExtractedDocument } from './document.js';
import { CHARACTER_SYMBOLS, CHARACTER_WORDS, codePageDecoder } from './rtf-control-words.js';
import { hyperlinkTarget, INFO_FIELDS, rtfTime, SKIPPED_DESTINATIONS, TIME_FIELDS, type Group } from './rtf-destinations.js';

export class RtfReader {
  private decoder = new TextDecoder('windows-1252');
  private readonly stack: Group[] = [];
  private group: Group = { sink: 'body', uc: 1 };
  /** `\'hh` bytes and plain characters, decoded together so multi-byte code pages come out whole. */
  private pendingBytes: number[] = [];
  /** `\uN`'s fallback characters still to drop (`\ucN` of them). */
  private skipChars = 0;
  private info = '';
  private instruction = '';
  private link: { url: string; text: string } | null = null;
  private time: Record<string, number> = {};
  /** A group just opened: its first control word may name a destination. */
  private groupStart = false;
  /** `{\*…}`: a destination this reader does not know is skipped, not read as text. */
  private ignorable = false;

  constructor(private readonly doc: DocumentBuilder) {}

  openGroup(): void {
    this.flushBytes();
    this.stack.push(this.group);
    this.group = { sink: this.group.sink, key: this.group.key, uc: this.group.uc };
    this.groupStart = true;
    this.ignorable = false;
  }

  /** Closing the outermost group of an info field, a time or a field result is when it is complete. */
  closeGroup(): void {
    this.flushBytes();
    const closing = this.group;
    const parent = this.stack[this.stack.length - 1];
    if (closing.sink === 'info' && closing.key && parent?.sink !== 'info') this.doc.setMeta(closing.key, this.info);
    if (closing.sink === 'time' && closing.key && parent?.sink !== 'time') {
      const time = rtfTime(this.time);
      if (time) this.doc.setMeta(closing.key, time);
    }
    if (closing.sink === 'fldrslt' && parent?.sink !== 'fldrslt' && this.link) {
      this.doc.link(this.link.url, this.link.text);
      this.link = null;
    }
    this.group = this.stack.pop() ?? { sink: 'body', uc: 1 };
    this.groupStart = false;
  }

  /** `\'hh`: one byte in the document's code page, unless it is a `\uN` fallback. */
  hexByte(hex: string): void {
    if (this.skipChars > 0) {
      this.skipChars--;
      return;
    }
    if (/^[0-9a-f]{2}$/i.test(hex)) this.pendingBytes.push(parseInt(hex, 16));
  }

  /** A control symbol: a backslash and one non-letter. `\*` marks the group's destination ignorable. */
  controlSymbol(symbol: string): void {
    this.flushBytes();
    this.groupStart = false;
    if (symbol === '*') {
      this.ignorable = true;
      this.groupStart = true;
      return;
    }
    const text = CHARACTER_SYMBOLS.get(symbol);
    if (text !== undefined) this.emit(text);
  }

  /** A control word and its numeric parameter; returns how many characters of binary data follow (`\binN`). */
  controlWord(word: string, param: number | undefined): number {
    if (word !== 'u') this.flushBytes();
    if (this.groupStart) {
      this.groupStart = false;
      this.enterDestination(word);
      if (this.group.sink !== 'body' && this.group.sink !== 'fldrslt') return 0;
    }
    if (this.group.sink === 'time' && param !== undefined) {
      this.time[word] = param;
      return 0;
    }
    const text = CHARACTER_WORDS.get(word);
    if (text !== undefined) {
      this.emit(text);
      return 0;
    }
    switch (word) {
      case 'ansicpg':
        // an unknown code page keeps windows-1252
        this.decoder = codePageDecoder(param) ?? this.decoder;
        return 0;
      case 'uc':
        this.group.uc = param ?? 1;
        return 0;
      case 'u':
        this.flushBytes();
        if (param !== undefined) this.emit(String.fromCharCode(param < 0 ? param + 65536 : param));
        this.skipChars = this.group.uc;
        return 0;
      case 'bin':
        // binary data is never text
        return Math.max(0, param ?? 0);
      default:
        return 0;
    }
  }

  /** A run of characters between control characters, in the document's code page. */
  plainText(run: string): void {
    this.groupStart = false;
    if (this.skipChars > 0) {
      const cut = Math.min(this.skipChars, run.length);
      run = run.slice(cut);
      this.skipChars -= cut;
    }
    if (!run || this.group.sink === 'skip') return;
    for (let k = 0; k < run.length; k++) this.pendingBytes.push(run.charCodeAt(k));
    this.flushBytes();
  }

  finish(): ExtractedDocument {
    this.flushBytes();
    return this.doc.build();
  }

  /** A group's first control word names its destination: skipped, an info field, a time, a field part. */
  private enterDestination(word: string): void {
    const group = this.group;
    if (SKIPPED_DESTINATIONS.has(word)) group.sink = 'skip';
    else if (word === 'info') group.sink = 'skip';
    else if (Object.hasOwn(INFO_FIELDS, word) && this.stack.some((g) => g.sink === 'skip')) {
      group.sink = 'info';
      group.key = INFO_FIELDS[word];
      this.info = '';
    } else if (Object.hasOwn(TIME_FIELDS, word)) {
      group.sink = 'time';
      group.key = TIME_FIELDS[word];
      this.time = {};
    } else if (word === 'fldinst') {
      group.sink = 'fldinst';
      this.instruction = '';
    } else if (word === 'fldrslt') {
      group.sink = 'fldrslt';
      const url = hyperlinkTarget(this.instruction);
      this.link = url ? { url, text: '' } : null;
    } else if (this.ignorable) group.sink = 'skip';
  }

  private flushBytes(): void {
    if (!this.pendingBytes.length) return;
    this.emit(this.decoder.decode(new Uint8Array(this.pendingBytes)));
    this.pendingBytes = [];
  }

  private emit(s: string): void {
    switch (this.group.sink) {
      case 'body':
        this.doc.append(s);
        return;
      case 'fldrslt':
        this.doc.append(s);
        if (this.link) this.link.text += s;
        return;
      case 'info':
        this.info += s;
        return;
      case 'fldinst':
        this.instruction += s;
        return;
      default:
    }
  }
}

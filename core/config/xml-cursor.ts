/**
 * The position of xml-reader.ts in the text it reads, and what every step of it needs: the line of an
 * offset (counted once, forward, so a large nutch-site.xml is not rescanned per element), names,
 * whitespace, entity and character references, and the error that names the file and line.
 */
import { NutchError, type ErrorCode } from '../errors.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NAME = /[A-Za-z_:][\w.:-]*/y;

export class XmlCursor {
  /** The text without its byte-order mark. */
  readonly src: string;
  pos = 0;
  private line = 1;
  private counted = 0;

  constructor(text: string, private readonly file: string, private readonly code: ErrorCode) {
    this.src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  /** 1-based line of offset `at`. */
  lineAt(at: number): number {
    if (at < this.counted) {
      this.line = 1;
      this.counted = 0;
    }
    for (; this.counted < at; this.counted++) if (this.src.charCodeAt(this.counted) === 10) this.line++;
    return this.line;
  }

  /** `at` is an offset in the text, or `{ line }` when the culprit is an element opened earlier. */
  fail(at: number | { line: number }, reason: string): never {
    const l = typeof at === 'number' ? this.lineAt(at) : at.line;
    throw new NutchError(this.code, `${this.file}:${l}: malformed XML: ${reason}`, { file: this.file, line: l });
  }

  /** Text or an attribute value with its entity and character references replaced; `at` is where it starts. */
  decode(raw: string, at: number): string {
    if (!raw.includes('&')) return raw;
    return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);|&/g, (_m, ent: string | undefined) => {
      if (!ent) return this.fail(at, 'a bare "&" must be written &amp;');
      if (ent.startsWith('#')) {
        const cp = ent[1] === 'x' ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
        return cp <= 0x10ffff ? String.fromCodePoint(cp) : this.fail(at, `character reference &${ent}; is out of range`);
      }
      return ENTITIES[ent] ?? this.fail(at, `unknown entity &${ent}; (only &amp; &lt; &gt; &quot; &apos; are defined)`);
    });
  }

  /** The element or attribute name at `at` (the cursor does not move). */
  readName(at: number): string {
    NAME.lastIndex = at;
    const m = NAME.exec(this.src);
    return m ? m[0] : this.fail(at, `expected a name at "${this.src.slice(at, at + 20)}"`);
  }

  skipSpace(): void {
    while (this.pos < this.src.length && ' \t\r\n'.includes(this.src[this.pos]!)) this.pos++;
  }
}

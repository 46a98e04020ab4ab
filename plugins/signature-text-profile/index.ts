/**
 * Nutch's TextProfileSignature, a near-duplicate signature: tokens of letters and digits (lower-cased)
 * longer than `db.signature.text_profile.min_token_len` are counted; counts are rounded down to a
 * quantum QUANT = round(maxFreq * `db.signature.text_profile.quant_rate`) (at least 2 when any token
 * repeats, else 1); tokens below the quantum are dropped; the rest are sorted by count descending (then
 * lexically when `db.signature.text_profile.sec_sort_lex`), written "token\tcount" one per line, and
 * the MD5 of that profile is the signature. A page without text falls back to MD5Signature.
 */
import { createHash } from 'node:crypto';
import type { Content, Parse, PluginContext, Signature } from '../../sdk/plugin.js';

export class TextProfileSignature implements Signature {
  private readonly minTokenLength: number;
  private readonly quantRate: number;
  private readonly secondarySortLex: boolean;

  constructor(ctx: PluginContext) {
    this.minTokenLength = ctx.conf.getInt('db.signature.text_profile.min_token_len', 2);
    this.quantRate = ctx.conf.getFloat('db.signature.text_profile.quant_rate', 0.01);
    this.secondarySortLex = ctx.conf.getBoolean('db.signature.text_profile.sec_sort_lex', true);
  }

  calculate(content: Content, parse: Parse): Uint8Array {
    const text = parse?.text;
    if (!text) {
      const hash = createHash('md5');
      if (content.content.length > 0) hash.update(content.content);
      else hash.update(content.url, 'utf8');
      return new Uint8Array(hash.digest());
    }
    return new Uint8Array(createHash('md5').update(this.profile(text), 'utf8').digest());
  }

  /** The quantised profile text that is hashed (exposed for tests and for dedup diagnostics). */
  profile(text: string): string {
    const counts = new Map<string, number>();
    let maxFreq = 0;
    let token = '';
    const add = () => {
      if (token.length > this.minTokenLength) {
        const c = (counts.get(token) ?? 0) + 1;
        counts.set(token, c);
        if (c > maxFreq) maxFreq = c;
      }
      token = '';
    };
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (isLetterOrDigit(ch)) token += ch.toLowerCase();
      else if (token) add();
    }
    if (token) add();
    let quant = Math.round(maxFreq * this.quantRate);
    if (quant < 2) quant = maxFreq > 1 ? 2 : 1;
    const profile: [string, number][] = [];
    for (const [tok, cnt] of counts) {
      const q = Math.floor(cnt / quant) * quant;
      if (q >= quant) profile.push([tok, q]);
    }
    profile.sort((a, b) => b[1] - a[1] || (this.secondarySortLex ? (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0) : 0));
    return profile.map(([tok, cnt]) => `${tok}\t${cnt}`).join('\n');
  }
}

const LETTER_OR_DIGIT = /^[\p{L}\p{Nd}]$/u;

/** Java's Character.isLetterOrDigit on one UTF-16 unit (a lone surrogate is neither). */
function isLetterOrDigit(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  return LETTER_OR_DIGIT.test(ch);
}

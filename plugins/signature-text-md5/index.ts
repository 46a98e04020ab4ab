/**
 * Nutch's TextMD5Signature: the MD5 of the parsed text (UTF-8), so markup-only changes keep the
 * signature; a page with no text falls back to MD5Signature (raw content, or the URL when empty).
 */
import { createHash } from 'node:crypto';
import type { Content, Parse, Signature } from '../../sdk/plugin.js';

export class TextMD5Signature implements Signature {
  calculate(content: Content, parse: Parse): Uint8Array {
    const text = parse?.text;
    const hash = createHash('md5');
    if (text) hash.update(text, 'utf8');
    else if (content.content.length > 0) hash.update(content.content);
    else hash.update(content.url, 'utf8');
    return new Uint8Array(hash.digest());
  }
}

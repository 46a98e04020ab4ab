/**
 * Nutch's MD5Signature: the MD5 of the raw content bytes, so any byte change is a new signature.
 * A document without content (a redirect, an empty body) is signed by its URL, as Nutch signs a null
 * content, so empty pages do not all collapse into one duplicate.
 */
import { createHash } from 'node:crypto';
import type { Content, Parse, Signature } from '../../sdk/plugin.js';

export class MD5Signature implements Signature {
  calculate(content: Content, _parse: Parse): Uint8Array {
    const hash = createHash('md5');
    if (content.content.length > 0) hash.update(content.content);
    else hash.update(content.url, 'utf8');
    return new Uint8Array(hash.digest());
  }
}

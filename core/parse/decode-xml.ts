/**
 * The text of an XML document's bytes, decoded as an XML parser would choose: a UTF-16 byte-order
 * mark, else the Content-Type's charset, else the XML declaration's encoding, else UTF-8 (an unknown
 * encoding name falls back to UTF-8). Shared by the parsers that read XML (feed, parse-tika's
 * office and EPUB formats) through nutch-ts/plugin.
 */
export function decodeXmlText(bytes: Uint8Array, contentType: string): string {
  let encoding = 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) encoding = 'utf-16be';
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = 'utf-16le';
  else {
    const declared = /charset\s*=\s*["']?([^;"'\s,]+)/i.exec(contentType)?.[1]
      ?? /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/.exec(Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 200)).toString('latin1'))?.[1];
    if (declared) encoding = declared;
  }
  try {
    return new TextDecoder(encoding).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

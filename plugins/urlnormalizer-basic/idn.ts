/**
 * Conversion of Internationalized Domain Names between their Unicode and ASCII (Punycode) forms, in
 * either of the two standards:
 * - IDNA2003 (the default, `urlnormalizer.basic.host.idna2008` = false) — what Nutch gets from Java's
 *   `java.net.IDN`: the deviation characters are mapped, so `straße.de` becomes `strasse.de`, `ς`
 *   becomes `σ` and the zero-width joiners vanish. This is UTS #46 transitional processing, which
 *   UTS #46 defines to be IDNA2003-compatible.
 * - IDNA2008 (UTS #46 non-transitional, as browsers and the WHATWG URL standard): `straße.de`
 *   becomes `xn--strae-oqa.de`.
 * Node's `domainToASCII` implements the non-transitional form; the transitional one is that plus the
 * four deviation mappings applied first.
 */
import { domainToASCII, domainToUnicode } from 'node:url';

const DEVIATIONS = /[\u00df\u03c2\u200c\u200d]/g;
const DEVIATION_MAP: Record<string, string> = { '\u00df': 'ss', '\u03c2': '\u03c3', '\u200c': '', '\u200d': '' };

/** The host in ASCII form, or '' when it is not a valid IDN. `host` is already lower-cased. */
export function idnToAscii(host: string, idna2008: boolean): string {
  return domainToASCII(idna2008 ? host : host.replace(DEVIATIONS, (c) => DEVIATION_MAP[c]));
}

/**
 * The host with its Punycode labels decoded. Under IDNA2003 a label is decoded only when encoding the
 * result gives the label back (Java's `IDN.toUnicode` check), so `xn--strae-oqa` — which IDNA2003
 * would have written `strasse` — stays as it is.
 */
export function idnToUnicode(host: string, idna2008: boolean): string {
  if (idna2008) return domainToUnicode(host);
  const labels = host.split('.');
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i];
    if (!label.startsWith('xn--')) continue;
    const decoded = domainToUnicode(label);
    if (decoded !== '' && idnToAscii(decoded, false) === label) labels[i] = decoded;
  }
  return labels.join('.');
}

/**
 * The language policy shared by both extensions, as Nutch's HTMLLanguageParser: `detect` reads what the
 * document states, `identify` recognises the text with franc (trigram profiles, as Tika's n-gram
 * LanguageIdentifier), in the order lang.extraction.policy lists them. Codes are ISO 639-1 (`en`, `fr`),
 * as Nutch's; franc's languages without an ISO 639-1 code are left out, which also keeps near-duplicates
 * such as Scots from taking English text.
 */
import { francAll } from 'franc';
import { iso6393To1 } from 'iso-639-3/iso6393-to-1.js';
import { iso6393To2B } from 'iso-639-3/iso6393-to-2b.js';
import type { Configuration, Metadata } from '../../sdk/plugin.js';

/** Nutch's Metadata.LANGUAGE: the parse metadata key the parse filter writes and the indexing filter reads. */
export const LANGUAGE_KEY = 'language';
/** Where parse-tika puts a document's stated language. */
const DC_LANGUAGE = 'dc:language';
/** Fewer characters than this are never "certain". */
const CERTAIN_MIN_CHARS = 50;
/** The runner-up must score below this share of the best for a "certain" identification. */
const CERTAIN_MAX_RUNNER_UP = 0.9;

const ISO1 = new Set(Object.values(iso6393To1));
/** ISO 639-3 and 639-2/B codes (eng, fre, ger) to ISO 639-1. */
const TO_ISO1 = new Map<string, string>();
for (const [three, one] of Object.entries(iso6393To1)) {
  TO_ISO1.set(three, one);
  const b = (iso6393To2B as Record<string, string>)[three];
  if (b) TO_ISO1.set(b, one);
}
/** franc's identification is restricted to languages that have an ISO 639-1 code. */
const FRANC_ONLY = Object.keys(iso6393To1);

/**
 * An ISO 639-1 code from a stated value (`en-GB`, `de_DE`, `fr, en`, `eng`, `ger`), or null: the first
 * of the comma/space/semicolon separated values whose primary subtag is a known code, as Nutch's
 * LanguageParser.parseLanguage.
 */
export function parseLanguage(value: string | undefined | null): string | null {
  if (!value) return null;
  for (const part of value.split(/[,\s;.()=]+/)) {
    const primary = part.split(/[-_]/)[0]!.toLowerCase();
    if (ISO1.has(primary)) return primary;
    const mapped = TO_ISO1.get(primary);
    if (mapped) return mapped;
  }
  return null;
}

export interface LanguageEvidence {
  /** Stated values, best first (html lang, dc.language, http-equiv, a document's dc:language, the header). */
  stated: (string | undefined)[];
  title: string;
  text: string;
}

export class LanguageDetector {
  private readonly policy: ('detect' | 'identify')[];
  private readonly maxLength: number;
  private readonly onlyCertain: boolean;

  constructor(conf: Configuration) {
    const policy = conf.getStrings('lang.extraction.policy').map((p) => p.trim().toLowerCase());
    this.policy = policy.filter((p): p is 'detect' | 'identify' => p === 'detect' || p === 'identify');
    this.maxLength = conf.getInt('lang.analyze.max.length', 2048);
    this.onlyCertain = conf.getBoolean('lang.identification.only.certain', false);
  }

  get empty(): boolean {
    return this.policy.length === 0;
  }

  language(evidence: LanguageEvidence): string | null {
    for (const step of this.policy) {
      const lang = step === 'detect' ? this.detect(evidence) : this.identify(evidence);
      if (lang) return lang;
    }
    return null;
  }

  private detect(evidence: LanguageEvidence): string | null {
    for (const value of evidence.stated) {
      const lang = parseLanguage(value);
      if (lang) return lang;
    }
    return null;
  }

  identify(evidence: Pick<LanguageEvidence, 'title' | 'text'>): string | null {
    let sample = evidence.title ? `${evidence.title} ${evidence.text}` : evidence.text;
    if (this.maxLength > 0 && sample.length > this.maxLength) sample = sample.slice(0, this.maxLength);
    const ranked = francAll(sample, { only: FRANC_ONLY });
    const best = ranked[0];
    if (!best || best[0] === 'und') return null;
    if (this.onlyCertain) {
      const runnerUp = ranked[1]?.[1] ?? 0;
      if (sample.trim().length < CERTAIN_MIN_CHARS || runnerUp >= CERTAIN_MAX_RUNNER_UP * best[1]) return null;
    }
    return iso6393To1[best[0]] ?? null;
  }
}

/** What a document parser (parse-tika) and the server state, in Nutch's order after the HTML clues. */
export function statedByParseAndServer(parseMeta: Metadata, contentMeta: Metadata): (string | undefined)[] {
  const header = Object.entries(contentMeta).find(([k]) => k.toLowerCase() === 'content-language')?.[1]?.[0];
  return [parseMeta[DC_LANGUAGE]?.[0], header];
}

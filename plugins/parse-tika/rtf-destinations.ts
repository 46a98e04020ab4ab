/**
 * RTF destinations, as Tika's RTFParser reads them: which groups hold no document text, which
 * `{\info}` fields become metadata, and how a `\creatim`/`\revtim` group and a HYPERLINK field
 * instruction turn into metadata and an outlink.
 */
import { MetaKeys } from './document.js';

/** Destinations whose content is not document text. */
export const SKIPPED_DESTINATIONS = new Set([
  'fonttbl', 'colortbl', 'stylesheet', 'listtable', 'listoverridetable', 'revtbl', 'rsidtbl', 'generator', 'pict', 'object',
  'objdata', 'themedata', 'colorschememapping', 'latentstyles', 'datastore', 'xmlnstbl', 'filetbl', 'header', 'footer',
  'headerl', 'headerr', 'headerf', 'footerl', 'footerr', 'footerf', 'footnote', 'bkmkstart', 'bkmkend', 'nonshppict', 'shppict',
]);

/** `{\info}` fields -> Tika metadata names. */
export const INFO_FIELDS: Record<string, string> = {
  title: MetaKeys.TITLE, author: MetaKeys.CREATOR, subject: MetaKeys.SUBJECT, keywords: MetaKeys.KEYWORDS, doccomm: MetaKeys.DESCRIPTION,
  operator: 'meta:last-author',
};

/** `{\info}` times -> Tika metadata names; their parts come as control words (`\yr2025\mo1…`). */
export const TIME_FIELDS: Record<string, string> = { creatim: MetaKeys.CREATED, revtim: MetaKeys.MODIFIED };

/** Where a group's text goes: the body, nowhere, an info field, a field instruction or result, a time. */
export type GroupSink = 'body' | 'skip' | 'info' | 'fldinst' | 'fldrslt' | 'time';

export interface Group {
  sink: GroupSink;
  /** The metadata name of an info or time group. */
  key?: string;
  /** `\ucN`: how many fallback characters follow a `\uN`; inherited by nested groups. */
  uc: number;
}

/** An RTF time group's parts as an ISO local date-time; null without a year (Tika writes none then). */
export function rtfTime(time: Record<string, number>): string | null {
  if (!time.yr) return null;
  const pad = (v: number | undefined) => String(v ?? 0).padStart(2, '0');
  return `${time.yr}-${pad(time.mo || 1)}-${pad(time.dy || 1)}T${pad(time.hr)}:${pad(time.min)}:${pad(time.sec)}`;
}

/** The target of a `HYPERLINK "url"` (or `HYPERLINK \l "anchor"`) field instruction, else null. */
export function hyperlinkTarget(instruction: string): string | null {
  const m = /HYPERLINK\s+(?:\\l\s+)?"([^"]+)"/.exec(instruction);
  return m ? m[1]! : null;
}

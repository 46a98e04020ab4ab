/**
 * plugin.includes checked at start: every alternative of the regex that matches no discovered plugin
 * is reported once, with the closest plugin ids and, for a Nutch plugin nutch-ts does not have, what
 * to use instead (nutch-plugin-replacements.ts) — Nutch itself silently ignores such alternatives, so
 * a `parse-(html|tika)|indexer-solr` copied from Nutch would otherwise lose parsing or indexing
 * without a word.
 */
import { editDistance } from '../config/property-types.js';
import { includesAlternatives, isLiteralId } from './includes-alternatives.js';
import { replacementForPlugin, type NutchPluginReplacement } from './nutch-plugin-replacements.js';

export interface UnmatchedAlternative {
  alternative: string;
  /** Discovered plugin ids closest to it, best first (at most three). */
  closest: string[];
  replacement?: NutchPluginReplacement;
  /** Discovered plugins of the replacement's `activate` list: they are activated in its place. */
  activate: string[];
}

export function checkIncludes(includes: string, pluginIds: readonly string[]): UnmatchedAlternative[] {
  const out: UnmatchedAlternative[] = [];
  const seen = new Set<string>();
  for (const alternative of includesAlternatives(includes)) {
    if (alternative === '' || seen.has(alternative)) continue;
    seen.add(alternative);
    let re: RegExp;
    try {
      re = new RegExp(`^(?:${alternative})$`);
    } catch {
      continue; // the whole regex compiles (checked by activation), a fragment may not: nothing to say
    }
    if (pluginIds.some((id) => re.test(id))) continue;
    const replacement = isLiteralId(alternative) || /^lib-/.test(alternative) ? replacementForPlugin(alternative) : undefined;
    out.push({
      alternative,
      closest: closestIds(alternative, pluginIds),
      replacement,
      activate: (replacement?.activate ?? []).filter((id) => pluginIds.includes(id)),
    });
  }
  return out;
}

function closestIds(name: string, ids: readonly string[]): string[] {
  const limit = Math.max(3, Math.floor(name.length / 3));
  return ids
    .map((id) => ({ id, d: editDistance(name, id) }))
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
    .slice(0, 3)
    .map((x) => x.id);
}

/** The warning for one alternative; `where` says where plugin.includes was set. */
export function describeUnmatched(u: UnmatchedAlternative, where: string): string {
  const parts = [`plugin.includes (${where}): "${u.alternative}" matches no plugin.`];
  if (u.replacement) {
    parts.push(`It is a plugin of Apache Nutch that nutch-ts does not have: ${u.replacement.advice}.`);
    if (u.activate.length) parts.push(`Activated in its place: ${u.activate.join(', ')}.`);
  }
  if (u.closest.length && !u.activate.length) parts.push(`Closest plugin ids: ${u.closest.join(', ')}.`);
  if (!u.replacement) parts.push('`nutch plugin list` shows every plugin found.');
  return parts.join(' ');
}

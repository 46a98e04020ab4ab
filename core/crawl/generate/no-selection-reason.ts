/**
 * Why generate selected nothing, from its counters: the CLI exits 1 with this message, and the
 * counters carry one reason flag (as bin/crawl needs to tell "done" from "broken").
 */
import type { Counters } from '../progress.js';

export interface NoSelectionReason {
  counter: 'NOTHING_SELECTED_EMPTY_CRAWLDB' | 'NOTHING_SELECTED_NONE_DUE' | 'NOTHING_SELECTED_ALL_FILTERED' | 'NOTHING_SELECTED_ALL_OVER_MAX_COUNT';
  message: string;
}

export const NO_SELECTION_COUNTERS: readonly NoSelectionReason['counter'][] = [
  'NOTHING_SELECTED_EMPTY_CRAWLDB', 'NOTHING_SELECTED_NONE_DUE', 'NOTHING_SELECTED_ALL_FILTERED', 'NOTHING_SELECTED_ALL_OVER_MAX_COUNT',
];

export function noSelectionReason(c: Counters): NoSelectionReason {
  const n = (k: string) => c[k] ?? 0;
  if (n('records_scanned') === 0) return { counter: 'NOTHING_SELECTED_EMPTY_CRAWLDB', message: 'the CrawlDb is empty' };
  if (n('candidates') > 0) {
    return { counter: 'NOTHING_SELECTED_ALL_OVER_MAX_COUNT', message: `all ${n('candidates')} due URLs are over generate.max.count` };
  }
  const filtered = n('URL_FILTERS_REJECTED') + n('STATUS_REJECTED') + n('INTERVAL_REJECTED') + n('SCORE_TOO_LOW') + n('MALFORMED_URL');
  const notDue = n('SCHEDULE_REJECTED') + n('WAIT_FOR_UPDATE');
  if (filtered > 0 && notDue === 0) {
    return { counter: 'NOTHING_SELECTED_ALL_FILTERED', message: `all ${filtered} URLs were filtered out (URL filters ${n('URL_FILTERS_REJECTED')}, status ${n('STATUS_REJECTED')}, interval ${n('INTERVAL_REJECTED')}, score ${n('SCORE_TOO_LOW')})` };
  }
  return { counter: 'NOTHING_SELECTED_NONE_DUE', message: `no URL is due for fetching (${n('SCHEDULE_REJECTED')} not due yet, ${n('WAIT_FOR_UPDATE')} generated recently and waiting for updatedb${filtered ? `, ${filtered} filtered` : ''})` };
}

/** The reason flag set in a generate's counters, with its message, or null when something was selected. */
export function describeNoSelection(c: Counters): string | null {
  if ((c.selected ?? 0) > 0) return null;
  if (c.stopped) return 'generate was stopped';
  return noSelectionReason(c).message;
}

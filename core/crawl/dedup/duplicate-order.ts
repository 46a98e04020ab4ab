/**
 * DeduplicationJob's choice between two pages with the same signature: the criteria of -compareOrder
 * in turn (score, fetchTime, httpsOverHttp, urlLength); the first that decides names the duplicate.
 */
export const COMPARE_CRITERIA = ['score', 'fetchTime', 'httpsOverHttp', 'urlLength'] as const;
export type CompareCriterion = (typeof COMPARE_CRITERIA)[number];
export const DEFAULT_COMPARE_ORDER: CompareCriterion[] = ['score', 'fetchTime', 'urlLength'];

export interface DedupCandidate {
  url: string;
  score: number;
  fetchTime: number;
}

/** The duplicate among the two (the one to mark), or null when no criterion decides (both stay). */
export function getDuplicate(existing: DedupCandidate, candidate: DedupCandidate, order: readonly CompareCriterion[]): DedupCandidate | null {
  for (const criterion of order) {
    switch (criterion) {
      case 'score':
        // the higher score is kept
        if (existing.score < candidate.score) return existing;
        if (existing.score > candidate.score) return candidate;
        break;
      case 'fetchTime':
        // same score? the more recently fetched is kept
        if (existing.fetchTime > candidate.fetchTime) return candidate;
        if (existing.fetchTime < candidate.fetchTime) return existing;
        break;
      case 'httpsOverHttp': {
        // https:// beats http:// when the URLs are otherwise identical
        const a = existing.url;
        const b = candidate.url;
        if (a.startsWith('https://') && b.startsWith('http://') && a.slice(8) === b.slice(7)) return candidate;
        if (b.startsWith('https://') && a.startsWith('http://') && b.slice(8) === a.slice(7)) return existing;
        break;
      }
      case 'urlLength': {
        // the shortest (decoded) URL is kept
        const a = decoded(existing.url).length;
        const b = decoded(candidate.url).length;
        if (a < b) return candidate;
        if (a > b) return existing;
        break;
      }
    }
  }
  return null;
}

function decoded(url: string): string {
  try {
    // java.net.URLDecoder also turns '+' into a space
    return decodeURIComponent(url.replace(/\+/g, ' '));
  } catch {
    return url;
  }
}

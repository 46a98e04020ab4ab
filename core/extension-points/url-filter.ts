/**
 * URLFilter — combine rule: SEQUENTIAL CHAIN with short-circuit on null. Each filter returns the URL
 * (accept, possibly rewritten) or null (reject); the first null rejects. Order: `urlfilter.order`
 * when set (only the listed ids, in that order, as Nutch), else every active URLFilter by id.
 */
export interface URLFilter {
  /** The URL to accept it, null to reject it. Synchronous: called for every URL. */
  filter(url: string): string | null;
}

export interface FilterStep {
  extensionId: string;
  filter: URLFilter;
}

export class URLFilters {
  constructor(
    private readonly steps: readonly FilterStep[],
    private readonly onError: (extensionId: string, url: string, err: unknown) => void = () => {},
  ) {}

  get chain(): readonly string[] {
    return this.steps.map((s) => s.extensionId);
  }

  filter(url: string): string | null {
    let current: string | null = url;
    for (const step of this.steps) {
      try {
        current = step.filter.filter(current);
      } catch (err) {
        this.onError(step.extensionId, current ?? url, err);
        return null;
      }
      if (current === null || current === undefined) return null;
    }
    return current;
  }

  /** Like filter(), but names the filter that rejected the URL (for the checker's -json mode). */
  trace(url: string): { result: string | null; rejectedBy?: string } {
    let current: string | null = url;
    for (const step of this.steps) {
      try {
        current = step.filter.filter(current);
      } catch (err) {
        this.onError(step.extensionId, current ?? url, err);
        return { result: null, rejectedBy: step.extensionId };
      }
      if (current === null || current === undefined) return { result: null, rejectedBy: step.extensionId };
    }
    return { result: current };
  }
}

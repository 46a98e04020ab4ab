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
    const rejectedAt = this.run(url);
    return rejectedAt.step === -1 ? rejectedAt.url : null;
  }

  /** Like filter(), but names the filter that rejected the URL (for the checker's -json mode). */
  trace(url: string): { result: string | null; rejectedBy?: string } {
    const rejectedAt = this.run(url);
    return rejectedAt.step === -1 ? { result: rejectedAt.url } : { result: null, rejectedBy: this.steps[rejectedAt.step]!.extensionId };
  }

  /** The chain once: the accepted URL (step -1), or the index of the step that rejected or threw. */
  private run(url: string): { url: string; step: number } {
    let current: string | null = url;
    for (let i = 0; i < this.steps.length; i++) {
      const step = this.steps[i]!;
      try {
        current = step.filter.filter(current);
      } catch (err) {
        this.onError(step.extensionId, current ?? url, err);
        return { url, step: i };
      }
      if (current === null || current === undefined) return { url, step: i };
    }
    return { url: current, step: -1 };
  }
}

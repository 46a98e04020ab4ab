/**
 * URLExemptionFilter — combine rule: ANY. An outlink that `db.ignore.external.links` would drop is kept
 * when any exemption filter returns true for (fromUrl, toUrl), as Nutch's URLExemptionFilters.
 */
export interface URLExemptionFilter {
  filter(fromUrl: string, toUrl: string): boolean;
}

export class URLExemptionFilters {
  constructor(
    private readonly steps: readonly { extensionId: string; filter: URLExemptionFilter }[],
    private readonly onError: (extensionId: string, url: string, err: unknown) => void = () => {},
  ) {}

  get chain(): readonly string[] {
    return this.steps.map((s) => s.extensionId);
  }

  isExempted(fromUrl: string, toUrl: string): boolean {
    for (const step of this.steps) {
      try {
        if (step.filter.filter(fromUrl, toUrl)) return true;
      } catch (err) {
        this.onError(step.extensionId, toUrl, err);
      }
    }
    return false;
  }
}

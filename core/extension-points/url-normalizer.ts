/**
 * URLNormalizer — combine rule: REDUCE. Each normaliser in the scope's chain receives the previous
 * one's output; a null from any normaliser drops the URL. The whole chain repeats while the URL still
 * changes, up to `urlnormalizer.loop.count` passes (as Nutch's URLNormalizers).
 * Order: `urlnormalizer.order.<scope>`, else `urlnormalizer.order`; listed ids first, the rest after.
 * `urlnormalizer.scope.<scope>`, when set, restricts the scope to the listed ids.
 */
export const NormalizerScopes = [
  'default', 'partition', 'generate_host_count', 'fetcher', 'crawldb', 'linkdb', 'inject', 'outlink', 'indexer',
] as const;
export type NormalizerScope = (typeof NormalizerScopes)[number] | (string & {});

export interface URLNormalizer {
  /** The normalised URL, or null to drop it. Synchronous: called for every URL. */
  normalize(url: string, scope: NormalizerScope): string | null;
}

export interface NormalizerStep {
  extensionId: string;
  normalizer: URLNormalizer;
}

export class URLNormalizers {
  constructor(
    readonly scope: NormalizerScope,
    private readonly steps: readonly NormalizerStep[],
    private readonly loopCount: number,
    private readonly onError: (extensionId: string, url: string, err: unknown) => void = () => {},
  ) {}

  get chain(): readonly string[] {
    return this.steps.map((s) => s.extensionId);
  }

  normalize(url: string): string | null {
    let current: string | null = url;
    for (let pass = 0; pass < Math.max(1, this.loopCount); pass++) {
      const before: string = current!;
      for (const step of this.steps) {
        try {
          current = step.normalizer.normalize(current!, this.scope);
        } catch (err) {
          this.onError(step.extensionId, before, err);
          return null;
        }
        if (current === null || current === undefined) return null;
      }
      if (current === before) break;
    }
    return current;
  }

  /** Like normalize(), but reports which normaliser changed or dropped the URL (for the checker). */
  trace(url: string): { result: string | null; changedBy: string[]; droppedBy?: string } {
    const changedBy: string[] = [];
    let current: string | null = url;
    for (let pass = 0; pass < Math.max(1, this.loopCount); pass++) {
      const before: string = current!;
      for (const step of this.steps) {
        const input: string = current!;
        try {
          current = step.normalizer.normalize(input, this.scope);
        } catch (err) {
          this.onError(step.extensionId, input, err);
          return { result: null, changedBy, droppedBy: step.extensionId };
        }
        if (current === null || current === undefined) return { result: null, changedBy, droppedBy: step.extensionId };
        if (current !== input && !changedBy.includes(step.extensionId)) changedBy.push(step.extensionId);
      }
      if (current === before) break;
    }
    return { result: current, changedBy };
  }
}

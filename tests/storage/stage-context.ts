/**
 * Contexts for the database-stage tests (inject, generate, readdb): built-ins on (the FetchSchedule
 * plugins), an empty conf dir, a memory logger, plus small plugin objects standing in for URL
 * filters, normalisers and scoring filters with observable behaviour.
 */
import type { TestContext } from 'node:test';
import { fixtureContext, type TestNutchContext } from '../helpers/context.js';
import type { PluginObject } from '../../core/extension-points/typed-plugin.js';
import type { CrawlDatum } from '../../core/model/crawl-datum.js';

export function stageContext(t: TestContext, config: Record<string, unknown> = {}, plugins: PluginObject[] = []): TestNutchContext {
  return fixtureContext(t, { includeBuiltins: true, config: { 'plugin.includes': 'schedule-.*|test-.*', ...config }, plugins });
}

/** Rejects URLs containing "reject" (a URLFilter). */
export const rejectFilter: PluginObject = {
  id: 'test-reject-filter',
  extensions: [{ point: 'URLFilter', implementation: { filter: (u: string) => (u.includes('reject') ? null : u) } }],
};

/** Removes a `#fragment` and records every URL it sees (a URLNormalizer). */
export function fragmentNormalizer(seen: string[] = []): PluginObject {
  return {
    id: 'test-fragment-normalizer',
    extensions: [{ point: 'URLNormalizer', implementation: { normalize: (u: string) => { seen.push(u); return u.replace(/#.*$/, ''); } } }],
  };
}

/** Sort value = score x 10, injected score doubled (a ScoringFilter). */
export const doublingScoring: PluginObject = {
  id: 'test-doubling-scoring',
  extensions: [{
    point: 'ScoringFilter',
    implementation: {
      injectedScore: (_u: string, d: CrawlDatum) => { d.score *= 2; },
      generatorSortValue: (_u: string, d: CrawlDatum, init: number) => d.score * init,
    },
  }],
};

/**
 * Typed extension-point handles. Code names a point through `ExtensionPoints.URLFilter`, never a loose
 * string; the string id lives only in manifests and configuration. `methods` are the members an
 * implementation must have, checked when an instance is created.
 */
import { corePoints } from '../plugin/core-points.js';
import type { URLNormalizer } from './url-normalizer.js';
import type { URLFilter } from './url-filter.js';
import type { URLExemptionFilter } from './url-exemption-filter.js';
import type { ScoringFilter } from './scoring-filter.js';
import type { Protocol } from './protocol.js';
import type { Parser } from './parser.js';
import type { HtmlParseFilter } from './html-parse-filter.js';
import type { IndexingFilter } from './indexing-filter.js';
import type { IndexWriter } from './index-writer.js';
import type { FetchSchedule } from './fetch-schedule.js';
import type { Signature } from './signature.js';

export interface ExtensionPoint<T> {
  readonly id: string;
  /** Methods every implementation must have. */
  readonly methods: readonly string[];
  /** Runs in parse workers, so it needs a module path (cannot come from a plugin object). */
  readonly workerOnly: boolean;
  /** Phantom field carrying the implementation type. */
  readonly __type?: T;
}

function point<T>(id: string): ExtensionPoint<T> {
  const spec = corePoints.find((p) => p.id === id)!;
  return Object.freeze({ id, methods: spec.methods, workerOnly: spec.workerOnly });
}

export const ExtensionPoints = {
  URLNormalizer: point<URLNormalizer>('URLNormalizer'),
  URLFilter: point<URLFilter>('URLFilter'),
  URLExemptionFilter: point<URLExemptionFilter>('URLExemptionFilter'),
  ScoringFilter: point<ScoringFilter>('ScoringFilter'),
  Protocol: point<Protocol>('Protocol'),
  Parser: point<Parser>('Parser'),
  HtmlParseFilter: point<HtmlParseFilter>('HtmlParseFilter'),
  IndexingFilter: point<IndexingFilter>('IndexingFilter'),
  IndexWriter: point<IndexWriter>('IndexWriter'),
  FetchSchedule: point<FetchSchedule>('FetchSchedule'),
  Signature: point<Signature>('Signature'),
} as const;

/** Each point's implementation interface, by id: what typed plugin objects and definePlugin check against. */
export interface ExtensionPointTypes {
  URLNormalizer: URLNormalizer;
  URLFilter: URLFilter;
  URLExemptionFilter: URLExemptionFilter;
  ScoringFilter: ScoringFilter;
  Protocol: Protocol;
  Parser: Parser;
  HtmlParseFilter: HtmlParseFilter;
  IndexingFilter: IndexingFilter;
  IndexWriter: IndexWriter;
  FetchSchedule: FetchSchedule;
  Signature: Signature;
}

export type ExtensionPointId = keyof ExtensionPointTypes;


export function pointById(id: string): ExtensionPoint<unknown> | undefined {
  return (ExtensionPoints as Record<string, ExtensionPoint<unknown>>)[id];
}

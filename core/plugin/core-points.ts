/**
 * The extension points core declares: id, required methods, and whether it runs in parse workers.
 * core/extension-points/extension-point.ts turns these into typed handles.
 */
export interface PointSpec {
  id: string;
  methods: readonly string[];
  workerOnly: boolean;
}

export const corePoints: readonly PointSpec[] = [
  { id: 'URLNormalizer', methods: ['normalize'], workerOnly: false },
  { id: 'URLFilter', methods: ['filter'], workerOnly: false },
  { id: 'URLExemptionFilter', methods: ['filter'], workerOnly: false },
  { id: 'ScoringFilter', methods: [], workerOnly: false },
  { id: 'Protocol', methods: ['getProtocolOutput'], workerOnly: false },
  { id: 'Parser', methods: ['getParse'], workerOnly: true },
  { id: 'HtmlParseFilter', methods: ['filter'], workerOnly: true },
  { id: 'IndexingFilter', methods: ['filter'], workerOnly: false },
  { id: 'IndexWriter', methods: ['open', 'write', 'delete', 'commit', 'close'], workerOnly: false },
  { id: 'FetchSchedule', methods: ['setFetchSchedule', 'shouldFetch'], workerOnly: false },
  { id: 'Signature', methods: ['calculate'], workerOnly: true },
];

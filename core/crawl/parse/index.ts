/** The parse stage and the pieces the fetcher's inline parse reuses. */
export { parse, type ParseArgs } from './parse-segment.js';
export { SegmentParser, skipReason, isTruncated, type SegmentParseResult, type SkipReason } from './segment-parser.js';
export { ParseOutputProcessor, emptyOutlinkStats, type OutlinkStats, type ParseOutputOptions, type ParseOutputRecords } from './parse-output.js';
export { InlineParse } from './inline-parse.js';

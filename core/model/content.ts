/** Content: the raw bytes of a fetched document plus its protocol metadata (headers). */
import type { Metadata } from './metadata.js';

export interface Content {
  url: string;
  /** URL the bytes were finally read from (after protocol-level redirects), used to resolve links. */
  baseUrl: string;
  content: Uint8Array;
  contentType: string;
  metadata: Metadata;
}

export function createContent(init: Partial<Content> & { url: string }): Content {
  return {
    baseUrl: init.url,
    content: new Uint8Array(0),
    contentType: '',
    metadata: {},
    ...init,
  };
}

/** Content metadata keys, as Nutch's Response / Metadata constants. */
export const ContentMeta = {
  CONTENT_TYPE: 'Content-Type',
  CONTENT_LENGTH: 'Content-Length',
  LAST_MODIFIED: 'Last-Modified',
  LOCATION: 'Location',
  /** Set when the content was cut short; value is the reason (LENGTH, TIME). */
  TRUNCATED: 'nutch.content.truncated',
  FETCH_TIME: 'nutch.fetch.time',
  SEGMENT_NAME: 'nutch.segment.name',
  RESPONSE_CODE: 'nutch.response.code',
} as const;

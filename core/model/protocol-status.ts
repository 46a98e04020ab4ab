/** ProtocolStatus and ProtocolOutput: what a Protocol returns for one URL, with Nutch's codes. */
import type { Content } from './content.js';

export const ProtocolStatusCode = {
  SUCCESS: 1,
  FAILED: 2,
  PROTO_NOT_FOUND: 10,
  GONE: 11,
  MOVED: 12,
  TEMP_MOVED: 13,
  NOTFOUND: 14,
  RETRY: 15,
  EXCEPTION: 16,
  ACCESS_DENIED: 17,
  ROBOTS_DENIED: 18,
  REDIR_EXCEEDED: 19,
  NOTFETCHING: 20,
  NOTMODIFIED: 21,
  WOULDBLOCK: 22,
  BLOCKED: 23,
} as const;

export type ProtocolStatusCodeValue = (typeof ProtocolStatusCode)[keyof typeof ProtocolStatusCode];

export interface ProtocolStatus {
  code: number;
  /** Arguments, as Nutch: the redirect target for MOVED/TEMP_MOVED, the message for EXCEPTION. */
  args: string[];
  lastModified: number;
}

export function protocolStatus(code: number, ...args: string[]): ProtocolStatus {
  return { code, args, lastModified: 0 };
}

export function protocolStatusName(code: number): string {
  for (const [name, value] of Object.entries(ProtocolStatusCode)) if (value === code) return name;
  return `UNKNOWN(${code})`;
}

export interface ProtocolOutput {
  content: Content | null;
  status: ProtocolStatus;
}

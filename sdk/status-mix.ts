/**
 * The fetch status mix people read in the progress line and the dashboard: fetch's FetcherStatus
 * counters (Nutch's names, one per ProtocolStatus) folded into six groups. A redirect is MOVED or
 * TEMP_MOVED; gone includes ACCESS_DENIED and REDIR_EXCEEDED (all end as fetch_gone); exceptions
 * include RETRY, FAILED, BLOCKED and a missing protocol (all end as fetch_retry).
 */
import type { Counters } from '../core/crawl/progress.js';

export interface StatusMix {
  success: number;
  redirect: number;
  notfound: number;
  gone: number;
  robots_denied: number;
  exception: number;
}

export const STATUS_MIX_LABELS: Record<keyof StatusMix, string> = {
  success: 'ok',
  redirect: 'redirect',
  notfound: 'not found',
  gone: 'gone',
  robots_denied: 'robots denied',
  exception: 'exceptions',
};

export function statusMix(c: Counters): StatusMix {
  const n = (...names: string[]) => names.reduce((sum, name) => sum + (c[name] ?? 0), 0);
  return {
    success: n('success', 'notmodified'),
    redirect: n('moved', 'temp_moved'),
    notfound: n('notfound'),
    gone: n('gone', 'access_denied', 'redir_exceeded'),
    robots_denied: n('robots_denied'),
    exception: n('exception', 'retry', 'failed', 'blocked', 'proto_not_found', 'wouldblock'),
  };
}

export function addMix(a: StatusMix, b: StatusMix): StatusMix {
  return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v + b[k as keyof StatusMix]])) as unknown as StatusMix;
}

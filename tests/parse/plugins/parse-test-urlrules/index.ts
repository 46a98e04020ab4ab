import type { URLFilter, URLNormalizer } from '../../../../sdk/plugin.js';

/** URLs every instance saw, for the test to check that over-long ones never reach a normaliser. */
export const seen: string[] = ((globalThis as { __parseTestSeen?: string[] }).__parseTestSeen ??= []);

export class RecordingNormalizer implements URLNormalizer {
  normalize(url: string): string {
    seen.push(url);
    return url.replace(/\?sid=\w+$/, '');
  }
}

export class PrivateFilter implements URLFilter {
  filter(url: string): string | null {
    return url.includes('/private/') ? null : url;
  }
}

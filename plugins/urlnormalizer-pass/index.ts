/** Nutch's PassURLNormalizer: returns the URL unchanged; useful to give a scope a non-empty chain. */
import type { URLNormalizer } from '../../sdk/plugin.js';

export class PassURLNormalizer implements URLNormalizer {
  normalize(url: string): string {
    return url;
  }
}

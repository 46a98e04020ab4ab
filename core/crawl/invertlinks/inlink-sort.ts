/** invertlinks' staging of inverted links (toUrl, fromUrl, anchor): an ExternalSort by target URL. */
import { ExternalSort } from '../../storage/external-sort.js';

export class InlinkSort {
  private readonly sort = new ExternalSort({ columns: 2 });

  get size(): number {
    return this.sort.size;
  }

  add(links: readonly { toUrl: string; fromUrl: string; anchor: string }[]): void {
    for (const l of links) this.sort.add([l.toUrl, l.fromUrl, l.anchor]);
  }

  /** Links in target URL order (the stores' order), then in the order they were staged. */
  *links(): Generator<{ toUrl: string; fromUrl: string; anchor: string }> {
    for (const [toUrl, fromUrl, anchor] of this.sort.sorted()) yield { toUrl, fromUrl: fromUrl as string, anchor: anchor as string };
  }

  close(): void {
    this.sort.close();
  }
}

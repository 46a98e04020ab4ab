/**
 * mergesegs' output: one staged segment per slice (-slice N URLs, or one for all), each part of it
 * appended a batch at a time and the segment published when the slice is full, so a crash leaves no
 * half-merged segment; discard() drops the slice being written.
 */
import type { NutchContext } from '../context.js';
import type { Keyed, SegmentPartName, SegmentPartWriter, StagedSegment } from '../../storage/interfaces.js';

const BATCH = 200;

export class SliceWriter {
  readonly published: string[] = [];
  private staged: StagedSegment | null = null;
  private writers = new Map<SegmentPartName, SegmentPartWriter<unknown>>();
  private readonly pending = new Map<SegmentPartName, Keyed<unknown>[]>();
  private urls = 0;

  constructor(private readonly ctx: NutchContext, private readonly outputDir: string, private readonly parts: readonly SegmentPartName[], private readonly sliceSize: number) {}

  /** Starts a URL: opens the first slice, or the next one when this slice holds sliceSize URLs. */
  async nextUrl(): Promise<void> {
    if (!this.staged || (this.sliceSize > 0 && this.urls > 0 && this.urls % this.sliceSize === 0)) {
      await this.closeSlice();
      await this.openSlice();
    }
    this.urls++;
  }

  async add(part: SegmentPartName, record: Keyed<unknown>): Promise<void> {
    const batch = this.pending.get(part)!;
    batch.push(record);
    if (batch.length >= BATCH) await this.flush(part);
  }

  /** Publishes the slice being written. */
  async closeSlice(): Promise<void> {
    const staged = this.staged;
    if (!staged) return;
    for (const part of this.parts) {
      await this.flush(part);
      await this.writers.get(part)!.finish();
      await this.writers.get(part)!.close();
    }
    const seg = await staged.publish();
    this.published.push(seg.path);
    await seg.close();
    this.staged = null;
    this.writers = new Map();
  }

  /** Drops the slice being written (a failure or a stop); published slices stay. */
  async discard(): Promise<void> {
    const staged = this.staged;
    if (!staged) return;
    for (const w of this.writers.values()) await w.close().catch(() => undefined);
    await staged.discard();
    this.staged = null;
  }

  private async openSlice(): Promise<void> {
    const staged = this.staged = await this.ctx.storage.createStagedSegment(this.outputDir);
    for (const part of this.parts) {
      this.writers.set(part, (await staged.openWriter(part, 0, { totalPartitions: 1 })) as SegmentPartWriter<unknown>);
      this.pending.set(part, []);
    }
  }

  private async flush(part: SegmentPartName): Promise<void> {
    const batch = this.pending.get(part);
    if (!batch || batch.length === 0) return;
    await this.writers.get(part)!.append(batch);
    this.pending.set(part, []);
  }
}

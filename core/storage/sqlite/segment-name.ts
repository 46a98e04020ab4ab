/** Segment names, as Nutch's Generator: the local time as yyyyMMddHHmmss, unique in the segments dir. */
import fs from 'node:fs';
import path from 'node:path';

export const SEGMENT_NAME = /^\d{14}$/;

export function formatSegmentName(time: number): string {
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${two(d.getMonth() + 1)}${two(d.getDate())}${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}`;
}

/** Names handed out in this process and not yet created on disk. */
const reserved = new Set<string>();

/**
 * Now as yyyyMMddHHmmss, moved one second forward while the name is taken (on disk, staged, or
 * handed out in this process), so several segments generated in one second stay distinct, as
 * Nutch's Generator does by waiting a second between segments.
 */
export function uniqueSegmentName(segmentsDir: string, now = Date.now()): string {
  for (let t = now; ; t += 1000) {
    const name = formatSegmentName(t);
    const key = path.join(path.resolve(segmentsDir), name);
    if (reserved.has(key) || fs.existsSync(key) || fs.existsSync(stagingPath(segmentsDir, name))) continue;
    reserved.add(key);
    return name;
  }
}

export function releaseSegmentName(segmentsDir: string, name: string): void {
  reserved.delete(path.join(path.resolve(segmentsDir), name));
}

/** Where a segment is written before publish() renames it into place. Hidden from listSegments. */
export function stagingPath(segmentsDir: string, name: string): string {
  return path.join(segmentsDir, `.${name}.inprogress`);
}

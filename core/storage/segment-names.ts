/** Segment names, as Nutch's Generator makes them: the local time as yyyyMMddHHmmss. Every engine uses them. */
export const SEGMENT_NAME = /^\d{14}$/;

export function formatSegmentName(time: number): string {
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${two(d.getMonth() + 1)}${two(d.getDate())}${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}`;
}

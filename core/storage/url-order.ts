/**
 * URL order, the one every engine's scans follow (interfaces.ts): Unicode code-point order, which
 * is the byte order of UTF-8 — SQLite's BINARY collation, PostgreSQL's `COLLATE "C"`. JavaScript's
 * `<` compares UTF-16 code units, which disagrees for characters above U+FFFF versus
 * U+E000..U+FFFF; a merge-join of two sorted streams must use this order.
 */
export function compareUrls(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Fix up surrogates so code units compare in code point order (ICU's trick).
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

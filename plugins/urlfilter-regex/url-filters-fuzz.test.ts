/**
 * Every urlfilter-* plugin in one chain against generated garbage and near-URLs: each answer is the
 * input or null, and no plugin ever throws (the chain would log a throw as an error record).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filterHarness } from '../../tests/helpers/filter-test-harness.js';

function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['http://', 'https://', 'ftp://', 'file:///', 'mailto:', 'HTTP://', 'xn--', 'www.', 'example', '.com', '.co.uk', '.', '..', '/', '//', '?', '#', '&', '=', '%', '%2', '%zz', '%41', ':', ':80', ':99999', '@', '[', ']', '[::1]', ' ', '\t', '\u0000', '\u0085', '\u00e9', '\u{1F600}', '\ud800', 'a', 'Z', '9', '-', '_', '~', '*', '!', '(', ')', "'", '"', '<', '>', '\\', '|', '{', '}', '^', '`'];

test('10,000 generated inputs through all seven filters: input or null, never a throw', async () => {
  const h = await filterHarness({
    id: 'all',
    includes: 'urlfilter-(regex|prefix|suffix|domain|domaindenylist|validator|fast)',
    files: {
      'domain-urlfilter.txt': 'com\nexample.org\nwww.example.co.uk\n',
      'domaindenylist-urlfilter.txt': 'evil.com\n',
      'fast-urlfilter.txt': 'Domain com\n  DenyPath (?i)\\.exe$\nDomain .\n  DenyPathQuery (/[^/]+)/[^/]+\\1/[^/]+\\1/\n',
    },
  });
  try {
    const r = rng(3);
    let accepted = 0;
    for (let i = 0; i < 10_000; i++) {
      let s = r() < 0.5 ? PIECES[Math.floor(r() * 3)] + 'www.example.com/' : '';
      const n = Math.floor(r() * 14);
      for (let k = 0; k < n; k++) s += PIECES[Math.floor(r() * PIECES.length)];
      const out = h.filter(s);
      assert.ok(out === null || out === s, `changed ${JSON.stringify(s)}`);
      if (out !== null) accepted++;
    }
    assert.ok(accepted > 0, 'some generated URLs should pass every filter');
    assert.deepEqual(h.warnings().filter((w) => /threw|failed|error/i.test(w)), []);
  } finally {
    await h.close();
  }
});

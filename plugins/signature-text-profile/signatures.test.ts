import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestContext } from '../../sdk/testing.js';
import { createContent, createParseData, type Parse, type Signature } from '../../sdk/plugin.js';

const md5 = (s: string | Uint8Array) => createHash('md5').update(s).digest('hex');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

async function signature(cls: string, defines: Record<string, string> = {}): Promise<Signature> {
  const ctx = createTestContext({ cwd: mkdtempSync(join(tmpdir(), 'sig-')), env: { NUTCH_CONF_DIR: join(tmpdir(), 'no-such-conf') }, defines: { 'db.signature.class': cls, ...defines } });
  return ctx.extensions.signature();
}

const parseOf = (text: string): Parse => ({ text, data: createParseData(), isCanonical: true });
const page = (body: string) => createContent({ url: 'http://e.com/', content: new TextEncoder().encode(body) });

test('db.signature.class defaults to MD5Signature (by Nutch class name)', async () => {
  const ctx = createTestContext({ cwd: mkdtempSync(join(tmpdir(), 'sig-')), env: { NUTCH_CONF_DIR: join(tmpdir(), 'no-such-conf') } });
  assert.equal(ctx.conf.getString('db.signature.class'), 'org.apache.nutch.crawl.MD5Signature');
  const sig = await ctx.extensions.signature();
  assert.equal(hex(sig.calculate(page('<p>x</p>'), parseOf('x'))), md5('<p>x</p>'));
});

const table: { cls: string; content: string; text: string; expect: string }[] = [
  { cls: 'org.apache.nutch.crawl.MD5Signature', content: '<b>a</b>', text: 'a', expect: md5('<b>a</b>') },
  { cls: 'signature-md5', content: '', text: '', expect: md5('http://e.com/') },
  { cls: 'org.apache.nutch.crawl.TextMD5Signature', content: '<b>a</b>', text: 'a', expect: md5('a') },
  { cls: 'signature-text-md5', content: '<b></b>', text: '', expect: md5('<b></b>') },
  { cls: 'org.apache.nutch.crawl.TextProfileSignature', content: '<p/>', text: '', expect: md5('<p/>') },
  // Tokens longer than 2 chars; max freq 3 -> QUANT 2; "the" 3 -> 2, "cat" 2 -> 2, "sat" 1 dropped; equal counts sort lexically.
  { cls: 'org.apache.nutch.crawl.TextProfileSignature', content: 'x', text: 'The cat, the CAT; the mat sat on a TV.', expect: md5('cat\t2\nthe\t2') },
  // Every token once: QUANT 1, all kept, sorted lexically at equal counts.
  { cls: 'signature-text-profile', content: 'x', text: 'zeta alpha Mid', expect: md5('alpha\t1\nmid\t1\nzeta\t1') },
];

for (const c of table) {
  test(`${c.cls}: content ${JSON.stringify(c.content)}, text ${JSON.stringify(c.text)}`, async () => {
    const sig = await signature(c.cls);
    assert.equal(hex(sig.calculate(page(c.content), parseOf(c.text))), c.expect);
  });
}

test('TextProfileSignature: near-duplicates (one rare word changed) share the signature; MD5 does not', async () => {
  const base = 'apple banana cherry '.repeat(50);
  const a = parseOf(base + 'kiwi');
  const b = parseOf(base + 'lemon');
  const profile = await signature('signature-text-profile');
  const textMd5 = await signature('signature-text-md5');
  assert.equal(hex(profile.calculate(page('a'), a)), hex(profile.calculate(page('b'), b)));
  assert.notEqual(hex(textMd5.calculate(page('a'), a)), hex(textMd5.calculate(page('b'), b)));
});

test('TextProfileSignature: min_token_len and sec_sort_lex are honoured', async () => {
  const sig = await signature('signature-text-profile', { 'db.signature.text_profile.min_token_len': '3' });
  // "the" (3 chars) is no longer longer than min_token_len.
  assert.equal(hex(sig.calculate(page('x'), parseOf('the cat sat cats'))), md5('cats\t1'));
  const unsorted = await signature('signature-text-profile', { 'db.signature.text_profile.sec_sort_lex': 'false' });
  assert.equal(hex(unsorted.calculate(page('x'), parseOf('zeta alpha'))), md5('zeta\t1\nalpha\t1'));
});

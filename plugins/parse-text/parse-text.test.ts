import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestContext } from '../../sdk/testing.js';
import { createContent, ParseStatusCode, type Parser } from '../../sdk/plugin.js';

async function parseText(bytes: Uint8Array, contentType = 'text/plain') {
  const ctx = createTestContext({ cwd: mkdtempSync(join(tmpdir(), 'parse-text-')), env: { NUTCH_CONF_DIR: join(tmpdir(), 'no-such-conf') } });
  const parser = await ctx.plugins.getInstance<Parser>(ctx.plugins.findExtension('Parser', 'org.apache.nutch.parse.text.TextParser')!);
  const url = 'http://example.com/notes.txt';
  return (await parser.getParse(createContent({ url, content: bytes, contentType }))).parses[url]!;
}

const cases: { name: string; bytes: Uint8Array; contentType?: string; text: string; outlinks?: string[] }[] = [
  { name: 'UTF-8 by default', bytes: new TextEncoder().encode('crème brûlée'), text: 'crème brûlée' },
  { name: 'charset from Content-Type', bytes: new Uint8Array([0x63, 0x61, 0x66, 0xe9]), contentType: 'text/plain; charset=iso-8859-1', text: 'café' },
  { name: 'UTF-16LE BOM', bytes: new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]), text: 'hi' },
  { name: 'unknown charset label falls back to UTF-8', bytes: new TextEncoder().encode('ok'), contentType: 'text/plain; charset=bogus', text: 'ok' },
  {
    name: 'URLs in the text become outlinks, trailing punctuation trimmed, other schemes ignored',
    bytes: new TextEncoder().encode('See http://a.example/x, and (https://b.example/y?z=1). mailto:me@x.org ftp://f.example/file.'),
    text: 'See http://a.example/x, and (https://b.example/y?z=1). mailto:me@x.org ftp://f.example/file.',
    outlinks: ['http://a.example/x', 'https://b.example/y?z=1', 'ftp://f.example/file'],
  },
];

for (const c of cases) {
  test(`parse-text: ${c.name}`, async () => {
    const p = await parseText(c.bytes, c.contentType);
    assert.equal(p.data.status.majorCode, ParseStatusCode.SUCCESS);
    assert.equal(p.text, c.text);
    assert.equal(p.data.title, '');
    assert.deepEqual(p.data.outlinks.map((o) => o.toUrl), c.outlinks ?? []);
  });
}

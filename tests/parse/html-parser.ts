/**
 * parse-html's parser through the plugin-author testing surface, for the parse-html tests: a fresh
 * test context per call (its own -D values), the fixture pages of tests/parse/fixtures.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestContext } from '../../sdk/testing.js';
import { createContent, type Content, type Parse, type Parser } from '../../sdk/plugin.js';

const fixtures = fileURLToPath(new URL('../../tests/parse/fixtures/', import.meta.url));
export const fixture = (name: string) => new Uint8Array(readFileSync(join(fixtures, name)));

export async function htmlParser(defines: Record<string, string> = {}): Promise<Parser> {
  const ctx = createTestContext({ cwd: mkdtempSync(join(tmpdir(), 'parse-html-')), env: { NUTCH_CONF_DIR: join(tmpdir(), 'no-such-conf') }, defines });
  return ctx.plugins.getInstance<Parser>(ctx.plugins.findExtension('Parser', 'parse-html')!);
}

export async function parse(html: string | Uint8Array, init: Partial<Content> = {}, defines: Record<string, string> = {}): Promise<Parse> {
  const parser = await htmlParser(defines);
  const bytes = typeof html === 'string' ? new TextEncoder().encode(html) : html;
  const url = init.url ?? 'http://www.example.com/dir/page.html';
  const result = await parser.getParse(createContent({ url, content: bytes, contentType: 'text/html', ...init }));
  return result.parses[url]!;
}

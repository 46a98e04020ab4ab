/**
 * Test support for the urlfilter-* plugins (not a test itself): a real PluginRepository with only
 * the plugin under test, its rule files written to a temporary NUTCH_CONF_DIR, and table helpers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestContext } from '../../sdk/testing.js';

export interface FilterHarness {
  filter(url: string): string | null;
  confDir: string;
  warnings(): string[];
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** The plugin under test; with `includes`, the whole chain of the included plugins is run instead. */
  id: string;
  includes?: string;
  /** Rule files written into the temporary configuration directory. */
  files?: Record<string, string>;
  config?: Record<string, unknown>;
}

function writeConf(files: Record<string, string> = {}): string {
  const confDir = mkdtempSync(join(tmpdir(), 'nutch-urlfilter-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(confDir, name), content);
  return confDir;
}

export async function filterHarness(opts: HarnessOptions): Promise<FilterHarness> {
  const confDir = writeConf(opts.files);
  const ctx = createTestContext({ config: { 'plugin.includes': opts.includes ?? opts.id, ...opts.config }, env: { NUTCH_CONF_DIR: confDir }, cwd: confDir });
  let chain: Awaited<ReturnType<typeof ctx.extensions.urlFilters>>;
  try {
    chain = await ctx.extensions.urlFilters(opts.includes ? undefined : opts.id);
  } catch (err) {
    await ctx.close();
    rmSync(confDir, { recursive: true, force: true });
    throw err;
  }
  return {
    filter: (url) => chain.filter(url),
    confDir,
    warnings: () => ctx.log.records.filter((r) => r.level === 'warn' || r.level === 'error').map((r) => r.msg),
    close: async () => {
      await ctx.close();
      rmSync(confDir, { recursive: true, force: true });
    },
  };
}

/** The error loading the plugin raises (or null when it loads). */
export async function loadError(opts: HarnessOptions): Promise<{ code?: string; message: string } | null> {
  try {
    const h = await filterHarness(opts);
    await h.close();
    return null;
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
}

/** Input that is not a URL at all: every filter must reject it without throwing. */
export const MALFORMED: Array<[string, string]> = [
  ['empty string', ''],
  ['no scheme', 'www.example.com/page.html'],
  ['scheme only', 'http:'],
  ['no host', 'http://'],
  ['empty host with path', 'http:///path'],
  ['space in host', 'http://exa mple.com/'],
  ['space in path', 'http://example.com/a b.html'],
  ['leading space', ' http://example.com/'],
  ['tab', 'http://example.com/\tx'],
  ['newline', 'http://example.com/\nx'],
  ['NUL', 'http://example.com/\u0000'],
  ['DEL', 'http://example.com/\u007f'],
  ['C1 control', 'http://example.com/\u0085'],
  ['100 KB URL', 'http://example.com/' + 'a'.repeat(100 * 1024)],
  ['scheme starting with a digit', '1http://example.com/'],
  ['relative path', '/index.html'],
];

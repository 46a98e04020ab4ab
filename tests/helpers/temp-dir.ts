/** Temporary directories and files for tests: real files under os.tmpdir(), removed when the test ends. */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
export const fixturesDir = join(projectRoot, 'tests', 'fixtures');

/** A fresh directory, removed after the test (pass the node:test context) or left for the caller. */
export function tempDir(t?: TestContext | { after(fn: () => void): void }, prefix = 'nutch-ts-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t?.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes a file (text, or JSON for objects), creating parent folders. Returns the path. */
export function writeFile(path: string, content: string | object): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n');
  return path;
}

/**
 * Copies a fixture folder (tests/fixtures/plugins/<name>) to a temp dir, so its modules get a fresh
 * URL: Node caches imported modules per process, and lazy-import tests must see the first import.
 */
export function copyFixture(t: TestContext | { after(fn: () => void): void }, name: string): string {
  const dest = join(tempDir(t), name.replace(/[\\/]/g, '_'));
  cpSync(join(fixturesDir, 'plugins', name), dest, { recursive: true });
  return dest;
}

export function pluginFixture(name: string): string {
  return join(fixturesDir, 'plugins', name);
}

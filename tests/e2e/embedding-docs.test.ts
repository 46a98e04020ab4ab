/**
 * Issue 17's first acceptance line: docs/embedding.md's examples, extracted from the page (every block
 * after a `<!-- docs-test: <kind> <file> -->` marker), each in a fresh project of its kind — `npm init -y`
 * (CommonJS), the same with `"type": "module"`, and a TypeScript app from `tsc --init` with
 * `skipLibCheck: false` — resolving the packed nutch-ts (the shared packed-app fixture). Each compiles,
 * crawls the local test web, exits by itself, and writes nothing to stderr.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packedApp } from '../helpers/packed-app.js';
import { startTestWeb, type TestWeb } from '../web/test-web.js';
import { projectRoot, tempDir, writeFile } from '../helpers/temp-dir.js';

interface DocExample { kind: 'cjs' | 'esm' | 'ts'; file: string; code: string }

export function docExamples(markdown: string): DocExample[] {
  const re = /<!-- docs-test: (cjs|esm|ts) (\S+) -->\s*\n```\w*\n([\s\S]*?)\n```/g;
  return [...markdown.matchAll(re)].map((m) => ({ kind: m[1] as DocExample['kind'], file: m[2]!, code: m[3]! }));
}

const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const quietEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  return env; // no NUTCH_LOG_LEVEL, no NUTCH_CONF_DIR: the app's ./conf, as a newcomer's
};

function sh(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', npm_config_loglevel: 'error' } });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function runNode(cwd: string, file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd, env: quietEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A fresh project: `npm init -y`, the packed install's node_modules, a site file for the test web. */
async function freshProject(t: { after(fn: () => void): void }, kind: DocExample['kind']): Promise<string> {
  const app = await packedApp();
  const dir = join(tempDir(t, `nutch-docs-${kind}-`), 'app');
  writeFile(join(dir, '.keep'), '');
  sh('npm', ['init', '-y'], dir);
  if (kind !== 'cjs') sh('npm', ['pkg', 'set', 'type=module'], dir);
  symlinkSync(join(app.appDir, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // The test web answers at once; Nutch's 5 s politeness delay would only slow the test down.
  writeFile(join(dir, 'conf', 'nutch-site.json'), { 'fetcher.server.delay': 0, 'fetcher.threads.fetch': 4 });
  return dir;
}

const examples = docExamples(readFileSync(join(projectRoot, 'docs', 'embedding.md'), 'utf8'));

test('docs/embedding.md marks one example per kind of project', () => {
  assert.deepEqual(examples.map((e) => e.kind).sort(), ['cjs', 'esm', 'ts']);
  for (const e of examples) assert.match(e.code, /https:\/\/example\.org\//, `${e.file} seeds example.org`);
});

let web: Promise<TestWeb> | undefined;
const webOnce = () => (web ??= startTestWeb({ hosts: 2, pagesPerHost: 5, linksPerPage: 3, seed: 17 }));
after(async () => (await web)?.close());

/** What each example prints when it worked: search hits from the test web, or fetch progress with totals. */
const expectedOutput: Record<DocExample['kind'], RegExp> = {
  cjs: /^-?\d+\.\d\d http:\/\/127\.0\.0\.\d+:\d+\//m,
  esm: /^fetch \d+\/\d+$/m,
  ts: /^-?\d+\.\d\d http:\/\/127\.0\.0\.\d+:\d+\/\S* /m,
};

for (const example of examples) {
  test(`docs/embedding.md ${example.kind} example (${example.file}) compiles, crawls and exits quietly`, { timeout: 300_000 }, async (t) => {
    const testWeb = await webOnce();
    const dir = await freshProject(t, example.kind);
    const seeds = testWeb.seeds.map((s) => `'${s}'`).join(', ');
    writeFileSync(join(dir, example.file), example.code.replace(`'https://example.org/'`, seeds));
    let entry = example.file;
    if (example.kind === 'ts') {
      sh(process.execPath, [tsc, '--init'], dir);
      const tsconfig = join(dir, 'tsconfig.json');
      const text = readFileSync(tsconfig, 'utf8');
      assert.match(text, /"strict": true/);
      writeFileSync(tsconfig, text.replace(/"skipLibCheck": true/, '"skipLibCheck": false'));
      const compiled = spawnSync(process.execPath, [tsc], { cwd: dir, encoding: 'utf8' });
      assert.equal(compiled.status, 0, `tsc failed:\n${compiled.stdout}${compiled.stderr}`);
      entry = example.file.replace(/\.ts$/, '.js');
    }
    const r = await runNode(dir, entry);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stderr, '', 'nothing on stderr by default');
    assert.match(r.stdout, expectedOutput[example.kind]);
  });
}

/** Runs the `nutch` CLI in-process (runCli) or as a real child process, capturing output and exit code. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../sdk/cli/run.js';
import { projectRoot } from './temp-dir.js';
import { withTestStorage } from './test-storage.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdin?: string;
}

export async function runNutch(argv: string[], opts: CliOptions): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  const code = await runCli(withTestStorage(argv, opts.cwd), {
    stdin: Readable.from(opts.stdin !== undefined ? [opts.stdin] : []),
    stdout,
    stderr,
    cwd: opts.cwd,
    env: { NUTCH_CONF_DIR: opts.cwd, ...opts.env },
    signal: new AbortController().signal,
  });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

/** The CLI from source as a child process (`node --import tsx sdk/cli/main.ts`), or any bin given. */
export function spawnNutch(argv: string[], opts: CliOptions & { bin?: string }): Promise<CliResult> {
  return startNutch(argv, opts).result;
}

/** Like spawnNutch, but hands back the child too, so a test can signal it while it runs. */
export function startNutch(argv: string[], opts: CliOptions & { bin?: string; keepStdinOpen?: boolean }): { child: ChildProcessWithoutNullStreams; result: Promise<CliResult> } {
  // tsx by URL: `--import tsx` would resolve against the child's working directory (a temp dir).
  const all = withTestStorage(argv, opts.cwd);
  const args = opts.bin ? [opts.bin, ...all] : ['--import', import.meta.resolve('tsx'), join(projectRoot, 'sdk', 'cli', 'main.ts'), ...all];
  const child = spawn(process.execPath, args, { cwd: opts.cwd, env: { PATH: process.env.PATH, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const result = new Promise<CliResult>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    if (opts.keepStdinOpen) child.stdin.write(opts.stdin ?? '');
    else child.stdin.end(opts.stdin ?? '');
  });
  return { child, result };
}

/**
 * A child process run to its end, its output collected: the benches that time a real `nutch` command
 * (crawl, parse-tika) read its summary from stdout and the resource usage line from stderr, so only the
 * last `keepStderr` characters of stderr are kept (a long crawl logs a lot).
 */
import { spawn } from 'node:child_process';

export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runChild(cmd: string, args: string[], cwd: string, keepStderr = 400_000): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-keepStderr)));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

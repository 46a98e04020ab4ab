/**
 * Runs crash-child.ts and SIGKILLs it when it reports the chosen event (every other event is
 * acknowledged with "go"). Resolves with the events seen and whether the child was killed.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { projectRoot } from '../helpers/temp-dir.js';

export interface CrashRun {
  events: string[];
  killed: boolean;
  pid: number;
  stderr: string;
}

export function runUntil(args: string[], killAt: (event: string, index: number) => boolean): Promise<CrashRun> {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(projectRoot, 'tests', 'storage', 'crash-child.ts'), ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH },
  });
  const events: string[] = [];
  let killed = false;
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    events.push(line);
    if (line.startsWith('done ')) return;
    if (!killed && killAt(line, events.length - 1)) {
      killed = true;
      child.kill('SIGKILL');
    } else if (!killed) {
      child.stdin.write('go\n');
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => resolve({ events, killed, pid: child.pid!, stderr }));
  });
}

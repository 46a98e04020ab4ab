/**
 * Runs the local test web in its own child process (DESIGN §8), so a bench's CPU and RSS are the
 * crawler's own. The parent keeps a WebModel built from the same options and answers `seeds`,
 * `linksOf()` and `allUrls()` without asking the child.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebModel, type TestWebOptions } from '../../tests/web/web-model.js';

export interface TestWebProcess {
  readonly seeds: string[];
  readonly hosts: string[];
  readonly model: WebModel;
  readonly child: ChildProcess;
  linksOf(url: string): string[];
  allUrls(): string[];
  /** Requests served so far, and the child's RSS and CPU usage. */
  stats(): Promise<{ requests: number; rss: number; cpu: NodeJS.CpuUsage }>;
  close(): Promise<void>;
}

export async function startTestWebProcess(options: TestWebOptions): Promise<TestWebProcess> {
  if (typeof options.robots === 'object' && (options.robots.text || typeof options.robots.crawlDelay === 'function')) {
    throw new Error('test web process: robots.text and function crawlDelay cannot cross a process boundary');
  }
  const entry = fileURLToPath(new URL('./test-web-child.ts', import.meta.url));
  const child = fork(entry, [JSON.stringify(options)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const hosts = await new Promise<string[]>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`test web process exited early (code ${code})`)));
    child.once('message', (m: { type: string; hosts: string[] }) => resolve(m.hosts));
  });
  child.removeAllListeners('exit');
  const model = new WebModel(options);
  const index = new Map(hosts.map((h, i) => [h, i]));
  const url = (h: number, path: string) => `http://${hosts[h]}${path}`;
  return {
    seeds: hosts.map((_, i) => url(i, '/')),
    hosts,
    model,
    child,
    linksOf(u) {
      const p = new URL(u);
      const h = index.get(p.host);
      if (h === undefined) return [];
      const m = p.pathname === '/' ? 0 : Number(/^\/page\/(\d+)\.html$/.exec(p.pathname)?.[1] ?? NaN);
      if (!(m >= 0 && m < model.opts.pagesPerHost)) return [];
      return model.links(h, m).map((l) => url(l.host, l.path));
    },
    allUrls() {
      const out: string[] = [];
      for (let h = 0; h < hosts.length; h++) for (let p = 0; p < model.opts.pagesPerHost; p++) out.push(url(h, model.pagePath(p)));
      return out;
    },
    stats() {
      return new Promise((resolve) => {
        child.once('message', (m: { requests: number; rss: number; cpu: NodeJS.CpuUsage }) => resolve(m));
        child.send({ type: 'stats' });
      });
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'close' });
      await exited;
    },
  };
}

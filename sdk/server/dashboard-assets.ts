/**
 * The dashboard's files: its own page and script (sdk/server/dashboard/ in the source tree, copied to
 * dist/dashboard/ by the build) and the two libraries it uses, served from their installed packages —
 * htm's preact bundle (components without a build step) and uPlot (the charts). Read once, on first use.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packageRoot } from '../../core/config/package-root.js';

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

function dashboardDir(): string {
  const source = join(packageRoot(), 'sdk', 'server', 'dashboard');
  return existsSync(source) ? source : join(packageRoot(), 'dist', 'dashboard');
}

function files(): Record<string, string> {
  const require = createRequire(import.meta.url);
  const dir = dashboardDir();
  const uplot = dirname(require.resolve('uplot/dist/uPlot.iife.min.js'));
  return {
    'index.html': join(dir, 'index.html'),
    'app.js': join(dir, 'app.js'),
    'dashboard.css': join(dir, 'dashboard.css'),
    // htm's exports map names a standalone.js for require that it does not ship; its folder has the ES module
    'preact.js': join(dirname(require.resolve('htm/preact')), 'standalone.module.js'),
    'uplot.js': join(uplot, 'uPlot.iife.min.js'),
    'uplot.css': join(uplot, 'uPlot.min.css'),
  };
}

const cache = new Map<string, { type: string; body: Buffer }>();
let known: Record<string, string> | undefined;

export function dashboardAsset(name: string): { type: string; body: Buffer } {
  known ??= files();
  const file = Object.hasOwn(known, name) ? known[name] : undefined;
  if (!file) throw Object.assign(new Error(`No dashboard file ${name}.`), { statusCode: 404 });
  let asset = cache.get(name);
  if (!asset) {
    asset = { type: TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream', body: readFileSync(file) };
    cache.set(name, asset);
  }
  return asset;
}

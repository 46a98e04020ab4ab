/**
 * `nutch plugin create`: writes a ready plugin package — package.json with the `"nutch"` manifest,
 * the `nutch-plugin` keyword, a peer range on this nutch-ts and `files`; the implementation (JavaScript,
 * or TypeScript built by tsc into dist/); a test through nutch-ts/testing; a README. The generated
 * package passes its own test out of the box and runs in a crawl once it is in plugin.includes.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { NutchError } from '../core/errors.js';
import { packageVersion } from '../core/config/package-root.js';
import { SCAFFOLD_POINTS, scaffoldNames, template, type ScaffoldPoint, type Template } from './plugin-scaffold-templates.js';

export { SCAFFOLD_POINTS, type ScaffoldPoint } from './plugin-scaffold-templates.js';

export interface ScaffoldOptions {
  /** npm package name, also the plugin id (`nutch-urlfilter-ads`, `@me/nutch-index-lang`). */
  name: string;
  /** Folder to create; default `./<name without scope>`. */
  dir?: string;
  point?: ScaffoldPoint;
  typescript?: boolean;
  cwd?: string;
}

export interface ScaffoldResult {
  dir: string;
  files: string[];
}

const NAME = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

/** `>=0.1.0 <1.0.0` for 0.x (a minor may break), `>=1.2.0 <2.0.0` otherwise: what semver promises. */
export function peerRange(version: string): string {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return `>=${major}.${minor}.0 <${major + 1}.0.0`;
}

/** Writes the package for `opts` and returns its folder and files (relative paths). */
export function scaffoldPlugin(opts: ScaffoldOptions): ScaffoldResult {
  const point = opts.point ?? 'URLFilter';
  const dir = targetFolder(opts, point);
  const t = template(point, opts.name);
  const ts = !!opts.typescript;
  const files: Record<string, string> = {
    'package.json': JSON.stringify(packageJson(opts.name, point, t, ts), null, 2) + '\n',
    [ts ? 'src/index.ts' : 'index.js']: ts ? t.ts : t.js,
    'test/plugin.test.js': testFile(opts.name, t, ts),
    'README.md': readme(opts.name, point, t, ts),
    '.gitignore': ts ? 'node_modules\ndist\n' : 'node_modules\n',
  };
  if (ts) {
    files['tsconfig.json'] = JSON.stringify({
      compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, outDir: 'dist', rootDir: 'src', declaration: true, skipLibCheck: false },
      include: ['src'],
    }, null, 2) + '\n';
  }
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
  }
  return { dir, files: Object.keys(files) };
}

/** The folder to create, after checking the name and point; an existing non-empty folder is never written into. */
function targetFolder(opts: ScaffoldOptions, point: string): string {
  if (!NAME.test(opts.name)) {
    throw new NutchError('NUTCH_USAGE', `"${opts.name}" is not a valid npm package name (lower case, digits, . _ -, optionally @scope/); for example nutch-urlfilter-ads.`);
  }
  if (!(SCAFFOLD_POINTS as readonly string[]).includes(point)) {
    throw new NutchError('NUTCH_USAGE', `nutch plugin create has templates for ${SCAFFOLD_POINTS.join(', ')}; got --point ${point}. Start from one of them and change the point in package.json.`);
  }
  const dir = resolve(opts.cwd ?? process.cwd(), opts.dir ?? opts.name.replace(/^@[^/]+\//, ''));
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new NutchError('NUTCH_USAGE', `${dir} exists and is not empty; choose another folder.`, { path: dir });
  }
  return dir;
}

/** package.json: the `"nutch"` manifest, the nutch-plugin keyword, the peer range on this nutch-ts, `files`. */
function packageJson(name: string, point: ScaffoldPoint, t: Template, ts: boolean): Record<string, unknown> {
  const version = packageVersion();
  const { prefix } = scaffoldNames(name);
  return {
    name,
    version: '0.1.0',
    description: `nutch-ts ${point} plugin`,
    type: 'module',
    main: ts ? 'dist/index.js' : 'index.js',
    ...(ts ? { types: 'dist/index.d.ts' } : {}),
    keywords: ['nutch-plugin', 'nutch-ts', point.toLowerCase()],
    license: 'Apache-2.0',
    files: ts ? ['dist', 'README.md'] : ['index.js', 'README.md'],
    scripts: ts ? { build: 'tsc', prepack: 'tsc', test: 'tsc && node --test test/' } : { test: 'node --test test/' },
    peerDependencies: { 'nutch-ts': peerRange(version) },
    devDependencies: { 'nutch-ts': `^${version}`, ...(ts ? { typescript: '^6.0.0' } : {}) },
    nutch: {
      extensions: [{ id: prefix.split('.').pop() || 'main', point, implementation: t.className }],
      config: t.config,
    },
  };
}

/** The test: the plugin loaded from its own folder and driven through nutch-ts/testing. */
function testFile(name: string, t: Template, ts: boolean): string {
  return `// Runs the plugin the way nutch-ts does: loaded from this folder, activated, driven through
// nutch-ts/testing. \`npm test\`${ts ? ' builds dist/ first' : ''}.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createTestContext, ${t.helper} } from 'nutch-ts/testing';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));
const context = (config) => createTestContext({ pluginFolders: [pluginDir], config: { 'plugin.includes': '${name.replace(/[.]/g, '\\\\.')}', ...config } });

${t.test}`;
}

function readme(name: string, point: ScaffoldPoint, t: Template, ts: boolean): string {
  return `# ${name}

A nutch-ts ${point} plugin.

\`\`\`sh
npm install ${name}
\`\`\`

Add \`${name}\` to \`plugin.includes\` in \`conf/nutch-site.json\` (keep the default plugins in the
list: \`plugin.includes\` replaces it). Properties: ${Object.entries(t.config).map(([k, v]) => `\`${k}\` — ${v.description}`).join('; ')}

Develop: \`npm install\`, \`npm test\`${ts ? ' (builds dist/ with tsc first)' : ''}, then \`npm publish\`.
`;
}

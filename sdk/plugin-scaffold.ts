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

export const SCAFFOLD_POINTS = ['URLFilter', 'URLNormalizer', 'IndexingFilter'] as const;
export type ScaffoldPoint = (typeof SCAFFOLD_POINTS)[number];

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

/** `nutch-urlfilter-ads` -> `urlfilter.ads` (a property prefix in Nutch's style) and `UrlfilterAds` (a class stem). */
function names(name: string): { prefix: string; stem: string } {
  const bare = name.replace(/^@[^/]+\//, '').replace(/^nutch-/, '');
  const parts = bare.split(/[^a-z0-9]+/).filter(Boolean);
  return { prefix: parts.join('.'), stem: parts.map((p) => p[0]!.toUpperCase() + p.slice(1)).join('') };
}

/** `>=0.1.0 <1.0.0` for 0.x (a minor may break), `>=1.2.0 <2.0.0` otherwise: what semver promises. */
export function peerRange(version: string): string {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return `>=${major}.${minor}.0 <${major + 1}.0.0`;
}

interface Template {
  className: string;
  config: Record<string, { type: string; default: unknown; description: string }>;
  js: string;
  ts: string;
  test: string;
}

function template(point: ScaffoldPoint, name: string): Template {
  const { prefix, stem } = names(name);
  if (point === 'URLFilter') {
    const className = `${stem}URLFilter`;
    const prop = `${prefix}.hosts`;
    const body = (ts: boolean) => `/** Rejects the URLs of the hosts listed in ${prop} (and their subdomains). */
export class ${className}${ts ? ' implements URLFilter' : ''} {
  ${ts ? 'private readonly denied: string[];\n\n  ' : ''}constructor(ctx${ts ? ': PluginContext' : ''}) {
    this.denied = ctx.conf.getStrings('${prop}');
  }

  filter(url${ts ? ': string' : ''})${ts ? ': string | null' : ''} {
    const host = new URL(url).hostname;
    return this.denied.some((d) => host === d || host.endsWith(\`.\${d}\`)) ? null : url;
  }
}
`;
    return {
      className,
      config: { [prop]: { type: 'strings', default: [], description: 'Hosts whose URLs are rejected (subdomains too).' } },
      js: `// @ts-check\n/** @typedef {import('nutch-ts/plugin').PluginContext} PluginContext */\n\n${body(false).replace('constructor(ctx)', '/** @param {PluginContext} ctx */\n  constructor(ctx)').replace('filter(url)', '/** @param {string} url */\n  filter(url)')}`,
      ts: `import type { PluginContext, URLFilter } from 'nutch-ts/plugin';\n\n${body(true)}`,
      test: `test('rejects the hosts of ${prop}, keeps the others', async () => {
  const ctx = context({ '${prop}': ['ads.example'] });
  try {
    assert.deepEqual(await runURLFilter(ctx, ['http://ads.example/x', 'http://www.ads.example/', 'http://ok.example/']), [null, null, 'http://ok.example/']);
  } finally {
    await ctx.close();
  }
});
`,
    };
  }
  if (point === 'URLNormalizer') {
    const className = `${stem}URLNormalizer`;
    const prop = `${prefix}.strip`;
    const body = (ts: boolean) => `/** Removes the query parameters listed in ${prop} (tracking parameters by default). */
export class ${className}${ts ? ' implements URLNormalizer' : ''} {
  ${ts ? 'private readonly strip: Set<string>;\n\n  ' : ''}constructor(ctx${ts ? ': PluginContext' : ''}) {
    this.strip = new Set(ctx.conf.getStrings('${prop}'));
  }

  normalize(url${ts ? ': string' : ''})${ts ? ': string' : ''} {
    const u = new URL(url);
    for (const key of [...u.searchParams.keys()]) if (this.strip.has(key)) u.searchParams.delete(key);
    return u.toString();
  }
}
`;
    return {
      className,
      config: { [prop]: { type: 'strings', default: ['utm_source', 'utm_medium', 'utm_campaign'], description: 'Query parameters removed from every URL.' } },
      js: `// @ts-check\n/** @typedef {import('nutch-ts/plugin').PluginContext} PluginContext */\n\n${body(false).replace('constructor(ctx)', '/** @param {PluginContext} ctx */\n  constructor(ctx)').replace('normalize(url)', '/** @param {string} url */\n  normalize(url)')}`,
      ts: `import type { PluginContext, URLNormalizer } from 'nutch-ts/plugin';\n\n${body(true)}`,
      test: `test('removes the parameters of ${prop}', async () => {
  const ctx = context({});
  try {
    assert.deepEqual(await runURLNormalizer(ctx, ['http://a.example/p?utm_source=x&id=7']), ['http://a.example/p?id=7']);
  } finally {
    await ctx.close();
  }
});
`,
    };
  }
  const className = `${stem}IndexingFilter`;
  const prop = `${prefix}.field`;
  const body = (ts: boolean) => `/** Adds the length of the page text (in characters) to the field named by ${prop}. */
export class ${className}${ts ? ' implements IndexingFilter' : ''} {
  ${ts ? 'private readonly field: string;\n\n  ' : ''}constructor(ctx${ts ? ': PluginContext' : ''}) {
    this.field = ctx.conf.getString('${prop}');
  }

  filter(doc${ts ? ': NutchDocument' : ''}, ctx${ts ? ': IndexingContext' : ''})${ts ? ': NutchDocument' : ''} {
    doc.fields[this.field] = [ctx.parse.text.length];
    return doc;
  }
}
`;
  return {
    className,
    config: { [prop]: { type: 'string', default: 'textlength', description: 'Field that receives the length of the page text.' } },
    js: `// @ts-check\n/** @typedef {import('nutch-ts/plugin').PluginContext} PluginContext */\n/** @typedef {import('nutch-ts/plugin').NutchDocument} NutchDocument */\n/** @typedef {import('nutch-ts/plugin').IndexingContext} IndexingContext */\n\n${body(false).replace('constructor(ctx)', '/** @param {PluginContext} ctx */\n  constructor(ctx)').replace('filter(doc, ctx)', '/**\n   * @param {NutchDocument} doc\n   * @param {IndexingContext} ctx\n   */\n  filter(doc, ctx)')}`,
    ts: `import type { IndexingContext, IndexingFilter, NutchDocument, PluginContext } from 'nutch-ts/plugin';\n\n${body(true)}`,
    test: `test('adds the text length to ${prop}', async () => {
  const ctx = context({});
  try {
    const doc = await runIndexingFilter(ctx, { url: 'http://a.example/', text: 'twelve chars' });
    assert.deepEqual(doc?.fields.textlength, [12]);
  } finally {
    await ctx.close();
  }
});
`,
  };
}

const HELPER: Record<ScaffoldPoint, string> = { URLFilter: 'runURLFilter', URLNormalizer: 'runURLNormalizer', IndexingFilter: 'runIndexingFilter' };

export function scaffoldPlugin(opts: ScaffoldOptions): ScaffoldResult {
  const point = opts.point ?? 'URLFilter';
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
  const t = template(point, opts.name);
  const version = packageVersion();
  const ts = !!opts.typescript;
  const main = ts ? 'dist/index.js' : 'index.js';
  const { prefix } = names(opts.name);
  const pkg = {
    name: opts.name,
    version: '0.1.0',
    description: `nutch-ts ${point} plugin`,
    type: 'module',
    main,
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
  const files: Record<string, string> = {
    'package.json': JSON.stringify(pkg, null, 2) + '\n',
    [ts ? 'src/index.ts' : 'index.js']: ts ? t.ts : t.js,
    'test/plugin.test.js': `// Runs the plugin the way nutch-ts does: loaded from this folder, activated, driven through
// nutch-ts/testing. \`npm test\`${ts ? ' builds dist/ first' : ''}.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createTestContext, ${HELPER[point]} } from 'nutch-ts/testing';

const pluginDir = fileURLToPath(new URL('..', import.meta.url));
const context = (config) => createTestContext({ pluginFolders: [pluginDir], config: { 'plugin.includes': '${opts.name.replace(/[.]/g, '\\\\.')}', ...config } });

${t.test}`,
    'README.md': `# ${opts.name}

A nutch-ts ${point} plugin.

\`\`\`sh
npm install ${opts.name}
\`\`\`

Add \`${opts.name}\` to \`plugin.includes\` in \`conf/nutch-site.json\` (keep the default plugins in the
list: \`plugin.includes\` replaces it). Properties: ${Object.entries(t.config).map(([k, v]) => `\`${k}\` — ${v.description}`).join('; ')}

Develop: \`npm install\`, \`npm test\`${ts ? ' (builds dist/ with tsc first)' : ''}, then \`npm publish\`.
`,
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

/**
 * The implementations `nutch plugin create` writes, one template per extension point: a small
 * working example (deny hosts, strip query parameters, add the text length), its configuration
 * property, and the test that drives it. Each body is written once and emitted as TypeScript or as
 * JavaScript checked by tsc through JSDoc.
 */
export const SCAFFOLD_POINTS = ['URLFilter', 'URLNormalizer', 'IndexingFilter'] as const;
export type ScaffoldPoint = (typeof SCAFFOLD_POINTS)[number];

export interface Template {
  className: string;
  /** The nutch-ts/testing helper that drives the point. */
  helper: string;
  config: Record<string, { type: string; default: unknown; description: string }>;
  js: string;
  ts: string;
  test: string;
}

/** `nutch-urlfilter-ads` -> `urlfilter.ads` (a property prefix in Nutch's style) and `UrlfilterAds` (a class stem). */
export function scaffoldNames(name: string): { prefix: string; stem: string } {
  const bare = name.replace(/^@[^/]+\//, '').replace(/^nutch-/, '');
  const parts = bare.split(/[^a-z0-9]+/).filter(Boolean);
  return { prefix: parts.join('.'), stem: parts.map((p) => p[0]!.toUpperCase() + p.slice(1)).join('') };
}

export function template(point: ScaffoldPoint, name: string): Template {
  const { prefix, stem } = scaffoldNames(name);
  if (point === 'URLFilter') return urlFilterTemplate(prefix, stem);
  if (point === 'URLNormalizer') return urlNormalizerTemplate(prefix, stem);
  return indexingFilterTemplate(prefix, stem);
}

/**
 * The JavaScript flavour of a body: `// @ts-check` with the plugin-author types as JSDoc typedefs,
 * and a JSDoc comment put before each signature in `docs` (signature -> comment).
 */
function jsModule(typedefs: string[], body: string, docs: [signature: string, comment: string][]): string {
  let out = body;
  for (const [signature, comment] of docs) out = out.replace(signature, `${comment}\n  ${signature}`);
  return `// @ts-check\n${typedefs.map((t) => `/** @typedef {import('nutch-ts/plugin').${t}} ${t} */\n`).join('')}\n${out}`;
}

/** A test that creates a context with `config` and closes it whatever the assertions do. */
function contextTest(title: string, config: string, lines: string): string {
  return `test('${title}', async () => {
  const ctx = context(${config});
  try {
${lines}
  } finally {
    await ctx.close();
  }
});
`;
}

function urlFilterTemplate(prefix: string, stem: string): Template {
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
    helper: 'runURLFilter',
    config: { [prop]: { type: 'strings', default: [], description: 'Hosts whose URLs are rejected (subdomains too).' } },
    js: jsModule(['PluginContext'], body(false), [['constructor(ctx)', '/** @param {PluginContext} ctx */'], ['filter(url)', '/** @param {string} url */']]),
    ts: `import type { PluginContext, URLFilter } from 'nutch-ts/plugin';\n\n${body(true)}`,
    test: contextTest(`rejects the hosts of ${prop}, keeps the others`, `{ '${prop}': ['ads.example'] }`,
      "    assert.deepEqual(await runURLFilter(ctx, ['http://ads.example/x', 'http://www.ads.example/', 'http://ok.example/']), [null, null, 'http://ok.example/']);"),
  };
}

function urlNormalizerTemplate(prefix: string, stem: string): Template {
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
    helper: 'runURLNormalizer',
    config: { [prop]: { type: 'strings', default: ['utm_source', 'utm_medium', 'utm_campaign'], description: 'Query parameters removed from every URL.' } },
    js: jsModule(['PluginContext'], body(false), [['constructor(ctx)', '/** @param {PluginContext} ctx */'], ['normalize(url)', '/** @param {string} url */']]),
    ts: `import type { PluginContext, URLNormalizer } from 'nutch-ts/plugin';\n\n${body(true)}`,
    test: contextTest(`removes the parameters of ${prop}`, '{}',
      "    assert.deepEqual(await runURLNormalizer(ctx, ['http://a.example/p?utm_source=x&id=7']), ['http://a.example/p?id=7']);"),
  };
}

function indexingFilterTemplate(prefix: string, stem: string): Template {
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
    helper: 'runIndexingFilter',
    config: { [prop]: { type: 'string', default: 'textlength', description: 'Field that receives the length of the page text.' } },
    js: jsModule(['PluginContext', 'NutchDocument', 'IndexingContext'], body(false), [
      ['constructor(ctx)', '/** @param {PluginContext} ctx */'],
      ['filter(doc, ctx)', '/**\n   * @param {NutchDocument} doc\n   * @param {IndexingContext} ctx\n   */'],
    ]),
    ts: `import type { IndexingContext, IndexingFilter, NutchDocument, PluginContext } from 'nutch-ts/plugin';\n\n${body(true)}`,
    test: contextTest(`adds the text length to ${prop}`, '{}',
      "    const doc = await runIndexingFilter(ctx, { url: 'http://a.example/', text: 'twelve chars' });\n    assert.deepEqual(doc?.fields.textlength, [12]);"),
  };
}

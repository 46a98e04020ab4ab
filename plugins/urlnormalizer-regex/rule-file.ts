/**
 * Reads urlnormalizer-regex rules: Nutch's regex-normalize.xml format as-is
 * (`<regex-normalize><regex><pattern>…</pattern><substitution>…</substitution></regex>…`) with a
 * small XML reader that keeps line numbers, or a JSON form (`{"rules":[{"pattern","substitution"}]}`
 * or a bare array). Every defect is reported with the file and line (or JSON pointer).
 */
export interface RawRule {
  pattern: string;
  substitution: string;
  /** "file:line" or "file#/rules/2", for error messages. */
  where: string;
}

export class RuleSyntaxError extends Error {
  constructor(readonly where: string, message: string) {
    super(`${where}: ${message}`);
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function parseRules(text: string, source: string): RawRule[] {
  const trimmed = text.trimStart();
  if (source.endsWith('.json') || trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJsonRules(text, source);
  return parseXmlRules(text, source);
}

function parseJsonRules(text: string, source: string): RawRule[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new RuleSyntaxError(source, `not valid JSON: ${(err as Error).message}`);
  }
  const list = Array.isArray(doc) ? doc : (doc as { rules?: unknown } | null)?.rules;
  const base = Array.isArray(doc) ? '' : '/rules';
  if (!Array.isArray(list)) throw new RuleSyntaxError(source, 'expected {"rules": [{"pattern": …, "substitution": …}]} or an array of rules');
  return list.map((r, i) => {
    const where = `${source}#${base}/${i}`;
    if (typeof r !== 'object' || r === null) throw new RuleSyntaxError(where, 'a rule must be an object with "pattern" and "substitution"');
    const { pattern, substitution } = r as Record<string, unknown>;
    if (typeof pattern !== 'string' || pattern === '') throw new RuleSyntaxError(`${where}/pattern`, 'missing or empty "pattern" string');
    if (typeof substitution !== 'string') throw new RuleSyntaxError(`${where}/substitution`, 'missing "substitution" string (use "" to delete the match)');
    return { pattern, substitution, where: `${where}/pattern` };
  });
}

interface Element {
  name: string;
  line: number;
  text: string;
  children: Element[];
}

function parseXmlRules(text: string, source: string): RawRule[] {
  const root = readXml(text, source);
  if (root.name !== 'regex-normalize') throw new RuleSyntaxError(`${source}:${root.line}`, `top-level element is <${root.name}>, expected <regex-normalize>`);
  const rules: RawRule[] = [];
  for (const regex of root.children) {
    const where = `${source}:${regex.line}`;
    if (regex.name !== 'regex') throw new RuleSyntaxError(where, `unexpected element <${regex.name}> inside <regex-normalize>, expected <regex>`);
    let pattern: Element | undefined;
    let substitution: Element | undefined;
    for (const field of regex.children) {
      if (field.name === 'pattern') pattern = field;
      else if (field.name === 'substitution') substitution = field;
      else throw new RuleSyntaxError(`${source}:${field.line}`, `unexpected element <${field.name}> inside <regex>`);
    }
    if (!pattern || pattern.text === '') throw new RuleSyntaxError(where, '<regex> has no (or an empty) <pattern>');
    if (!substitution) throw new RuleSyntaxError(where, '<regex> has no <substitution> (use <substitution></substitution> to delete the match)');
    rules.push({ pattern: pattern.text, substitution: substitution.text, where: `${source}:${pattern.line}` });
  }
  return rules;
}

/** A minimal XML reader: elements, text, entities, comments, CDATA, declarations. No attributes used. */
function readXml(text: string, source: string): Element {
  let pos = 0;
  let line = 1;
  let lineCountedTo = 0;
  const lineAt = (at: number): number => {
    for (; lineCountedTo < at; lineCountedTo++) if (text.charCodeAt(lineCountedTo) === 10) line++;
    return line;
  };
  const fail = (at: number, message: string): never => {
    throw new RuleSyntaxError(`${source}:${lineAt(at)}`, message);
  };
  const decode = (raw: string, at: number): string =>
    raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);|&/g, (m, ent: string | undefined) => {
      if (!ent) return fail(at, 'a bare "&" must be written &amp;');
      if (ent.startsWith('#x')) return String.fromCodePoint(parseInt(ent.slice(2), 16));
      if (ent.startsWith('#')) return String.fromCodePoint(parseInt(ent.slice(1), 10));
      return ENTITIES[ent] ?? fail(at, `unknown entity &${ent};`);
    });

  const stack: Element[] = [];
  let root: Element | undefined;
  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    const textEnd = lt < 0 ? text.length : lt;
    if (textEnd > pos) {
      const chunk = text.slice(pos, textEnd);
      if (stack.length) stack[stack.length - 1].text += decode(chunk, pos);
      else if (chunk.trim() !== '') fail(pos, 'text outside the root element');
    }
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end < 0) fail(lt, 'unterminated comment');
      pos = end + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end < 0) fail(lt, 'unterminated CDATA section');
      if (!stack.length) fail(lt, 'CDATA outside the root element');
      stack[stack.length - 1].text += text.slice(lt + 9, end);
      pos = end + 3;
    } else if (text.startsWith('<?', lt) || text.startsWith('<!', lt)) {
      const end = text.indexOf('>', lt);
      if (end < 0) fail(lt, 'unterminated declaration');
      pos = end + 1;
    } else {
      const end = text.indexOf('>', lt);
      if (end < 0) fail(lt, 'unterminated tag');
      const tag = text.slice(lt + 1, end);
      const m = /^(\/?)([A-Za-z_][\w.-]*)(\s[^]*?)?(\/?)$/.exec(tag);
      if (!m) fail(lt, `malformed tag <${tag}>`);
      const [, closing, name, , selfClosing] = m!;
      const at = lineAt(lt);
      if (closing) {
        const open = stack.pop();
        if (!open || open.name !== name) fail(lt, `closing tag </${name}> does not match ${open ? `<${open.name}> opened on line ${open.line}` : 'any open element'}`);
      } else {
        const el: Element = { name, line: at, text: '', children: [] };
        if (stack.length) stack[stack.length - 1].children.push(el);
        else if (root) fail(lt, `second root element <${name}>`);
        else root = el;
        if (!selfClosing) stack.push(el);
      }
      pos = end + 1;
    }
  }
  if (stack.length) fail(text.length, `element <${stack[stack.length - 1].name}> opened on line ${stack[stack.length - 1].line} is never closed`);
  if (!root) fail(0, 'no <regex-normalize> element');
  return root!;
}

import Handlebars from 'handlebars';
import type { ErrorDetail } from '../../shared/errors';

/**
 * Message templates: Handlebars with a fixed set of variables per event and the `if` / `unless`
 * blocks, nothing else (no partials, no other helpers, no `{{{raw}}}` output in HTML, no
 * `this`, `@data` or `../` paths). A template is checked when it is saved; a problem is
 * reported with its line and column. The HTML part escapes every value; the subject and the
 * text part are plain text, and a rendered subject loses any line breaks.
 */

export const TEMPLATE_PARTS = ['subject', 'text', 'html'] as const;
export type TemplatePart = (typeof TEMPLATE_PARTS)[number];
export type TemplateParts = Record<TemplatePart, string>;

export const MAX_PART_LENGTH: Record<TemplatePart, number> = { subject: 500, text: 50_000, html: 100_000 };

const hb = Handlebars.create();
const BLOCK_HELPERS = new Set(['if', 'unless']);

type Node = hbs.AST.Node & { loc?: hbs.AST.SourceLocation };

const at = (loc: hbs.AST.SourceLocation | undefined) => (loc ? `line ${loc.start.line}, column ${loc.start.column + 1}: ` : '');

/** The position of a parse error: Handlebars gives the line, and an excerpt ending where it stopped. */
function parsePosition(source: string, message: string): { line: number; column: number } {
  const line = Number(/on line (\d+)/.exec(message)?.[1] ?? 1);
  const [, excerpt = '', caret = ''] = message.split('\n');
  const before = excerpt.slice(0, Math.max(0, caret.length - 1)).replace(/^\.\.\./, '');
  const text = source.split('\n')[line - 1] ?? '';
  let column = 0;
  for (let c = text.length; c > 0; c--) {
    if (before.endsWith(text.slice(0, c))) {
      column = c;
      break;
    }
  }
  return { line, column: column + 1 };
}

function pathName(p: hbs.AST.PathExpression): string | null {
  if (p.data || p.depth > 0 || p.parts.length === 0 || /^(this|\.)/.test(p.original)) return null;
  return p.parts.join('.');
}

/** Problems of one template part for an event whose variables are `allowed`; empty when it is fine. */
export function checkTemplate(part: TemplatePart, source: string, allowed: readonly string[]): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const fail = (node: Node | null, message: string) => out.push({ path: part, message: `${at(node?.loc)}${message}` });
  if (source.length > MAX_PART_LENGTH[part]) return [{ path: part, message: `must be at most ${MAX_PART_LENGTH[part]} characters` }];
  let program: hbs.AST.Program;
  try {
    program = hb.parse(source);
  } catch (err) {
    const message = (err as Error).message;
    const { line, column } = parsePosition(source, message);
    const why = message.split('\n').slice(3).join(' ') || message.split('\n')[0];
    return [{ path: part, message: `line ${line}, column ${column}: the template does not compile: ${why}` }];
  }
  // reported at `where`: the {{ of a mustache, the parameter of a block
  const variable = (node: hbs.AST.Expression, where: Node) => {
    if (node.type !== 'PathExpression') return fail(where, 'only variables may be used here');
    const name = pathName(node as hbs.AST.PathExpression);
    if (name === null) return fail(where, `${(node as hbs.AST.PathExpression).original} is not allowed; name a variable`);
    if (!allowed.includes(name)) fail(where, `unknown variable ${name}`);
  };
  const walk = (p: hbs.AST.Program | undefined) => {
    for (const s of p?.body ?? []) {
      switch (s.type) {
        case 'ContentStatement':
        case 'CommentStatement':
          break;
        case 'MustacheStatement': {
          const m = s as hbs.AST.MustacheStatement;
          if (m.params.length || m.hash) fail(m, 'helpers are not allowed; use {{variable}}');
          else if (!m.escaped && part === 'html') fail(m, 'unescaped output ({{{ }}}) is not allowed in html');
          else variable(m.path as hbs.AST.Expression, m);
          break;
        }
        case 'BlockStatement': {
          const b = s as hbs.AST.BlockStatement;
          const helper = b.path.type === 'PathExpression' ? (b.path as hbs.AST.PathExpression).original : '';
          if (!BLOCK_HELPERS.has(helper) || b.params.length !== 1 || b.hash) {
            fail(b, 'only {{#if variable}} and {{#unless variable}} blocks are allowed');
            break;
          }
          variable(b.params[0], b.params[0]);
          walk(b.program);
          walk(b.inverse);
          break;
        }
        default:
          fail(s as Node, 'partials and decorators are not allowed');
      }
    }
  };
  walk(program);
  return out;
}

/** Problems of a whole template (every part). */
export function checkTemplates(parts: Partial<TemplateParts>, allowed: readonly string[]): ErrorDetail[] {
  return TEMPLATE_PARTS.flatMap((p) => (parts[p] === undefined ? [] : checkTemplate(p, parts[p]!, allowed)));
}

const compiled = new Map<string, Handlebars.TemplateDelegate>();
const COMPILED_MAX = 2000;

function compile(source: string, escape: boolean): Handlebars.TemplateDelegate {
  const key = `${escape ? 'h' : 't'}:${source}`;
  let fn = compiled.get(key);
  if (!fn) {
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    fn = hb.compile(source, { noEscape: !escape, strict: false, knownHelpersOnly: true, knownHelpers: { if: true, unless: true } });
    compiled.set(key, fn);
  }
  return fn;
}

/** Line breaks and other control characters out of a one-line value (a subject, a display name). */
export const oneLine = (s: string): string =>
  s
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

/** Renders a checked template with `vars` (nested objects of strings). */
export function renderTemplate(t: TemplateParts, vars: object): TemplateParts {
  const opts = { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false };
  return {
    subject: oneLine(compile(t.subject, false)(vars, opts)).slice(0, 998),
    text: compile(t.text, false)(vars, opts),
    html: compile(t.html, true)(vars, opts),
  };
}

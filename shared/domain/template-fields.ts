/**
 * The merge fields of an email template, from its Handlebars parse tree (the parser alone, shared/domain/template-parser.ts,
 * loaded with `import()` by `parseTemplate`: a function that only reads stored templates does not load it, and none
 * bundles the compiler). Email templates are Handlebars text (https://handlebarsjs.com/guide/): `{{property.address}}` inserts a merge field
 * (shared/domain/merge-fields.ts), `{{#if parties.lender.name}}…{{else}}…{{/if}}` and `{{#unless …}}` test one, and
 * `{{! comment }}` is dropped. Nothing else (other helpers, partials, `#each`/`#with`, `@data`, `../`) is allowed: a
 * template names flat fields only, so every field it uses can be found in its parse tree and checked.
 *
 * Rendering is plain text (no HTML escaping). A field whose name is unknown, or that the deal has no value for,
 * is never rendered blank: it stays in the output as written (`{{keyDates.ClosingDate}}`) and is reported. A
 * condition on a field with no value is simply false.
 */
import { isMergeFieldName } from '#domain/merge-fields';
import type { OutlineNode, TemplateOutlines } from '#domain/template-outline';

/** What a template uses, from its parse tree. */
export interface TemplateAnalysis {
  /** Fields it inserts, in order of first use. */
  fields: string[];
  /** Fields only its `#if`/`#unless` blocks test. */
  conditions: string[];
  /** Names of the fields it uses (inserted or tested) that are not merge fields. */
  unknownFields: string[];
  /** Constructs it may not use, each described (e.g. `helper "each"`). */
  unsupported: string[];
}

/** The template text does not parse. `message` is Handlebars' own, with the line. */
export class TemplateSyntaxError extends Error {}

/** A node of the Handlebars AST (https://github.com/handlebars-lang/handlebars.js/blob/master/docs/compiler-api.md). */
export type Node = { type: string; [k: string]: any };

/**
 * The parse tree, whitespace control applied (as Handlebars compiles it). Async: the first call loads the parser.
 * @throws TemplateSyntaxError
 */
export async function parseTemplate(text: string): Promise<Node> {
  const { parse } = await import('#domain/template-parser');
  try {
    return parse(text) as Node;
  } catch (err) {
    throw new TemplateSyntaxError(err instanceof Error ? err.message.split('\n')[0] : String(err));
  }
}

/** A plain field path (`a.b.c`: no `this`, `@data` or `../`), else undefined. */
export function fieldOf(path: Node | undefined): string | undefined {
  if (!path || path.type !== 'PathExpression' || path.data || path.depth > 0 || /^(this|\.)/.test(path.original)) return undefined;
  return path.original as string;
}

/** Walks the tree, calling `visit` for each mustache and block (the caller decides). */
export function walk(node: Node | undefined, visit: (n: Node) => void): void {
  if (!node) return;
  if (node.type === 'Program') for (const s of node.body as Node[]) walk(s, visit);
  else {
    visit(node);
    if (node.type === 'BlockStatement') {
      walk(node.program, visit);
      walk(node.inverse, visit);
    }
  }
}

/** The fields, conditions, unknown names and unsupported constructs of a parsed template. */
export function analyzeTree(tree: Node): TemplateAnalysis {
  const fields: string[] = [];
  const conditions: string[] = [];
  const unsupported: string[] = [];
  const add = (list: string[], x: string) => list.includes(x) || list.push(x);
  walk(tree, (n) => {
    const line = n.loc?.start?.line ? ` (line ${n.loc.start.line})` : '';
    switch (n.type) {
      case 'ContentStatement':
      case 'CommentStatement':
        return;
      case 'MustacheStatement': {
        const field = fieldOf(n.path);
        if (field && !n.params.length && !n.hash) add(fields, field);
        else add(unsupported, `"${templateText(n)}"${line}: only {{field.name}} inserts a value`);
        return;
      }
      case 'BlockStatement': {
        const helper = n.path?.original;
        const field = fieldOf(n.params[0]);
        if ((helper === 'if' || helper === 'unless') && n.params.length === 1 && !n.hash && field) add(conditions, field);
        else add(unsupported, `block "${helper ?? '?'}"${line}: only {{#if field}} and {{#unless field}} blocks`);
        return;
      }
      default:
        add(unsupported, `${n.type.replace(/Statement$|Block$/, '').toLowerCase() || 'construct'}${line}: partials and decorators are not supported`);
    }
  });
  const unknownFields: string[] = [];
  for (const f of [...fields, ...conditions]) if (!isMergeFieldName(f)) add(unknownFields, f);
  return { fields, conditions: conditions.filter((c) => !fields.includes(c)), unknownFields, unsupported };
}

/** The source text of a mustache, as written (for messages and the kept placeholder). */
function templateText(n: Node): string {
  const path = n.path?.original ?? '';
  const params = (n.params ?? []).map((p: Node) => p.original ?? p.value ?? '…').join(' ');
  return `{{${[path, params].filter(Boolean).join(' ')}}}`;
}

/**
 * What a template uses.
 * @throws TemplateSyntaxError when the text does not parse
 */
export async function analyzeTemplate(text: string): Promise<TemplateAnalysis> {
  return analyzeTree(await parseTemplate(text));
}

/**
 * The outline of a parsed template (shared/domain/template-outline.ts): each mustache naming a field, and each block
 * testing one (a block helper other than `if` is read as `unless`; `analyzeTree` refuses those anyway).
 */
export function outlineOf(program: Node | undefined): OutlineNode[] {
  const out: OutlineNode[] = [];
  for (const n of (program?.body ?? []) as Node[]) {
    if (n.type === 'MustacheStatement') {
      const field = fieldOf(n.path);
      if (field) out.push(field);
    } else if (n.type === 'BlockStatement') {
      const field = fieldOf(n.params[0]);
      if (field) out.push({ block: n.path.original === 'if' ? 'if' : 'unless', field, then: outlineOf(n.program), else: outlineOf(n.inverse) });
    }
  }
  return out;
}

/** The outlines of a subject and body, as stored with a template. @throws TemplateSyntaxError when a text does not parse */
export const templateOutlines = async (subject: string, body: string): Promise<TemplateOutlines> => ({
  subject: outlineOf(await parseTemplate(subject)),
  body: outlineOf(await parseTemplate(body)),
});

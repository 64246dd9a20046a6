/**
 * Email templates as Handlebars text (https://handlebarsjs.com/guide/): `{{property.address}}` inserts a merge field
 * (shared/domain/merge-fields.ts), `{{#if parties.lender.name}}…{{else}}…{{/if}}` and `{{#unless …}}` test one, and
 * `{{! comment }}` is dropped. Nothing else (other helpers, partials, `#each`/`#with`, `@data`, `../`) is allowed: a
 * template names flat fields only, so every field it uses can be found in its parse tree and checked.
 *
 * Rendering is plain text (no HTML escaping). A field whose name is unknown, or that the deal has no value for,
 * is never rendered blank: it stays in the output as written (`{{keyDates.ClosingDate}}`) and is reported. A
 * condition on a field with no value is simply false.
 */
import Handlebars from 'handlebars';
import { isMergeFieldName } from '#domain/merge-fields';

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

type Node = { type: string; [k: string]: any };

const env = Handlebars.create();

/** @throws TemplateSyntaxError */
function parse(text: string): Node {
  try {
    return env.parse(text) as unknown as Node;
  } catch (err) {
    throw new TemplateSyntaxError(err instanceof Error ? err.message.split('\n')[0] : String(err));
  }
}

/** A plain field path (`a.b.c`: no `this`, `@data` or `../`), else undefined. */
function fieldOf(path: Node | undefined): string | undefined {
  if (!path || path.type !== 'PathExpression' || path.data || path.depth > 0 || /^(this|\.)/.test(path.original)) return undefined;
  return path.original as string;
}

/** Walks the tree, calling `visit` for each mustache and block (the caller decides). */
function walk(node: Node | undefined, visit: (n: Node) => void): void {
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
function analyzeTree(tree: Node): TemplateAnalysis {
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
export function analyzeTemplate(text: string): TemplateAnalysis {
  return analyzeTree(parse(text));
}

/** One rendered text and what it used. */
export interface RenderedText {
  text: string;
  /** Fields inserted with their values. */
  fields: string[];
  /** Names it uses anywhere that are not merge fields (kept as written where inserted). */
  unknownFields: string[];
  /** Merge fields it inserts (in a branch its conditions take) that have no value here (kept as written in `text`). */
  missingFields: string[];
}

/**
 * Renders a template with merge-field values.
 * @param values field name → value (null or absent when the deal has none)
 * @throws TemplateSyntaxError when the text does not parse or uses an unsupported construct
 */
export function renderTemplate(text: string, values: ReadonlyMap<string, string | null>): RenderedText {
  const tree = parse(text);
  const a = analyzeTree(tree);
  if (a.unsupported.length) throw new TemplateSyntaxError(`unsupported: ${a.unsupported.join('; ')}`);
  const has = (f: string) => isMergeFieldName(f) && values.get(f) != null && values.get(f) !== '';
  // Only the branches the conditions take count: a field inside a false #if is neither used nor missing.
  const reached: string[] = [];
  const visit = (node: Node | undefined): void => {
    if (!node) return;
    if (node.type === 'Program') return (node.body as Node[]).forEach(visit);
    if (node.type === 'BlockStatement') {
      const truthy = has(fieldOf(node.params[0])!) === (node.path.original === 'if');
      return visit(truthy ? node.program : node.inverse);
    }
    if (node.type !== 'MustacheStatement') return;
    const field = fieldOf(node.path)!;
    if (!reached.includes(field)) reached.push(field);
    if (has(field)) return;
    // A field without a value is kept as written: the mustache becomes literal text before compiling.
    const literal = node.escaped ? `{{${field}}}` : `{{{${field}}}}`;
    Object.assign(node, { type: 'ContentStatement', value: literal, original: literal });
  };
  visit(tree);
  const data: Record<string, unknown> = Object.create(null);
  for (const f of [...a.fields, ...a.conditions]) {
    if (!has(f)) continue;
    const parts = f.split('.');
    let at = data as Record<string, any>;
    for (const p of parts.slice(0, -1)) at = at[p] ??= Object.create(null);
    at[parts[parts.length - 1]] = values.get(f);
  }
  const compiled = env.compile(tree as unknown as hbs.AST.Program, { noEscape: true, knownHelpersOnly: true, knownHelpers: { if: true, unless: true }, strict: false });
  return {
    text: compiled(data, { allowProtoPropertiesByDefault: false }),
    fields: reached.filter(has),
    unknownFields: a.unknownFields,
    missingFields: reached.filter((f) => isMergeFieldName(f) && !has(f)),
  };
}

/**
 * Rendering an email template (shared/domain/template-fields.ts has the syntax, parsed by Handlebars' parser): plain
 * text, no HTML escaping. A field whose name is unknown, or that the deal has no value for, is never rendered blank:
 * it stays in the output as written (`{{keyDates.ClosingDate}}`) and is reported. A condition on a field with no
 * value is simply false.
 */
import { isMergeFieldName } from '#domain/merge-fields';
import { analyzeTree, fieldOf, outlineOf, parseTemplate, TemplateSyntaxError, type Node } from '#domain/template-fields';
import { reachedFields } from '#domain/template-outline';

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
 * Renders a template with merge-field values (async: parsing loads the parser).
 * @param values field name → value (null or absent when the deal has none)
 * @throws TemplateSyntaxError when the text does not parse or uses an unsupported construct
 */
export async function renderTemplate(text: string, values: ReadonlyMap<string, string | null>): Promise<RenderedText> {
  const tree = await parseTemplate(text);
  const a = analyzeTree(tree);
  if (a.unsupported.length) throw new TemplateSyntaxError(`unsupported: ${a.unsupported.join('; ')}`);
  const has = (f: string) => isMergeFieldName(f) && values.get(f) != null && values.get(f) !== '';
  const reached = reachedFields(outlineOf(tree), has);
  return {
    text: evaluate(tree, values, has),
    fields: reached.filter(has),
    unknownFields: a.unknownFields,
    missingFields: reached.filter((f) => isMergeFieldName(f) && !has(f)),
  };
}

/**
 * The text of a parsed template (Handlebars' AST after its whitespace control, so standalone block lines are already
 * stripped as Handlebars' own compiler would): content as written, a field with a value as that value (no HTML
 * escaping), a field without one kept as written (`{{field}}` or `{{{field}}}`), `#if` / `#unless` (and their
 * `else`, chained or not) taking the branch whether the field has a value. Only the constructs `analyzeTree`
 * accepts reach here; this replaces `Handlebars.compile`, whose code generator is most of Handlebars' weight.
 */
function evaluate(node: Node | undefined, values: ReadonlyMap<string, string | null>, has: (field: string) => boolean): string {
  if (!node) return '';
  switch (node.type) {
    case 'Program':
      return (node.body as Node[]).map((n) => evaluate(n, values, has)).join('');
    case 'ContentStatement':
      return node.value as string;
    case 'MustacheStatement': {
      const field = fieldOf(node.path)!;
      if (has(field)) return values.get(field)!;
      return node.escaped ? `{{${field}}}` : `{{{${field}}}}`;
    }
    case 'BlockStatement': {
      const taken = has(fieldOf(node.params[0])!) === (node.path.original === 'if');
      return evaluate(taken ? node.program : node.inverse, values, has);
    }
    default:
      return ''; // comments
  }
}

/**
 * Rendering an email template (shared/domain/template-fields.ts has the syntax) with Handlebars' compiler: plain
 * text, no HTML escaping. A field whose name is unknown, or that the deal has no value for, is never rendered blank:
 * it stays in the output as written (`{{keyDates.ClosingDate}}`) and is reported. A condition on a field with no
 * value is simply false.
 */
import Handlebars from 'handlebars';
import { isMergeFieldName } from '#domain/merge-fields';
import { analyzeTree, parseTemplate, reachedFields, TemplateSyntaxError } from '#domain/template-fields';

const env = Handlebars.create();

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
  const tree = parseTemplate(text);
  const a = analyzeTree(tree);
  if (a.unsupported.length) throw new TemplateSyntaxError(`unsupported: ${a.unsupported.join('; ')}`);
  const has = (f: string) => isMergeFieldName(f) && values.get(f) != null && values.get(f) !== '';
  const reached = reachedFields(tree, has, (node, field) => {
    if (has(field)) return;
    // A field without a value is kept as written: the mustache becomes literal text before compiling.
    const literal = node.escaped ? `{{${field}}}` : `{{{${field}}}}`;
    Object.assign(node, { type: 'ContentStatement', value: literal, original: literal });
  });
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

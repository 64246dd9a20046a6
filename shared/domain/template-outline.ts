/**
 * The outline of an email template's text: the merge fields it inserts and the `{{#if}}` / `{{#unless}}` blocks around
 * them, in source order, without its wording. It is taken from Handlebars' parse tree when a template is saved
 * (shared/domain/template-fields.ts `outlineOf`) and stored with it, and the system templates' are generated
 * (shared/domain/system-template-outlines.json), so checking a template's fields against a deal needs no parser: the
 * transactions group (a reminder checks its template) bundles none.
 */

/** A field the text inserts (`{{property.address}}`), or a block testing one with the nodes of each branch. */
export type OutlineNode = string | OutlineBlock;

/** `{{#if field}}then{{else}}else{{/if}}`, or `#unless` (then is taken when the field has no value). */
export interface OutlineBlock {
  block: 'if' | 'unless';
  field: string;
  then: OutlineNode[];
  else: OutlineNode[];
}

/** The outlines of a template's subject and body. */
export interface TemplateOutlines {
  subject: OutlineNode[];
  body: OutlineNode[];
}

/** Calls `visit` for each node, depth first in source order (a block before its branches). */
function walkOutline(nodes: readonly OutlineNode[], visit: (n: OutlineNode) => void): void {
  for (const n of nodes) {
    visit(n);
    if (typeof n !== 'string') {
      walkOutline(n.then, visit);
      walkOutline(n.else, visit);
    }
  }
}

/** The fields an outline inserts, in order of first use, and those only its blocks test. */
export function outlineFields(nodes: readonly OutlineNode[]): { fields: string[]; conditions: string[] } {
  const fields: string[] = [];
  const tested: string[] = [];
  walkOutline(nodes, (n) => {
    const [list, f] = typeof n === 'string' ? [fields, n] : [tested, n.field];
    if (!list.includes(f)) list.push(f);
  });
  return { fields, conditions: tested.filter((c) => !fields.includes(c)) };
}

/**
 * The merge fields of a template as `EmailTemplate.mergeFields` lists them: those the subject and then the body
 * insert, then those only their conditions test.
 */
export function mergeFieldsOfOutlines(o: TemplateOutlines): string[] {
  const s = outlineFields(o.subject);
  const b = outlineFields(o.body);
  return [...new Set([...s.fields, ...b.fields, ...s.conditions, ...b.conditions])];
}

/**
 * The fields inserted in the branches the blocks take, given which fields have a value (a field inside an `#if` not
 * taken is neither used nor missing), in order of first use.
 */
export function reachedFields(nodes: readonly OutlineNode[], has: (field: string) => boolean): string[] {
  const reached: string[] = [];
  const visit = (list: readonly OutlineNode[]): void => {
    for (const n of list) {
      if (typeof n === 'string') {
        if (!reached.includes(n)) reached.push(n);
      } else visit(has(n.field) === (n.block === 'if') ? n.then : n.else);
    }
  };
  visit(nodes);
  return reached;
}

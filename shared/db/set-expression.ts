/**
 * The `SET` clause of an UpdateItem that writes each field of an object: `SET #f0 = :v0, #f1 = :v1, …`, with
 * placeholder names, so any attribute name (reserved words such as `status` or `state` included) is safe.
 */

/** `fields` as an update's `SET` clause with its names and values; the placeholders are `#f<i>` and `:v<i>`. */
export function setExpression(fields: Record<string, unknown>): { expression: string; names: Record<string, string>; values: Record<string, unknown> } {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(fields).map(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:v${i}`] = v;
    return `#f${i} = :v${i}`;
  });
  return { expression: `SET ${sets.join(', ')}`, names, values };
}

/** Types of Handlebars' parser module (the package types only its main entry). */
declare module 'handlebars/dist/cjs/handlebars/compiler/base.js' {
  /** The parse tree of a template, whitespace control applied. @throws Error (Handlebars' `Exception`) on a syntax error */
  export function parse(input: string, options?: unknown): unknown;
}

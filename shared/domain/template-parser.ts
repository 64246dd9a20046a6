/**
 * Handlebars' parser alone (its lexer, grammar and whitespace control, ~36 KB; not the compiler), for
 * shared/domain/template-fields.ts, which loads it with `import()` on the paths that parse a template text
 * (create, render, backfill). The templates API group ships it as a chunk beside its bundle
 * (lib/bundling/lazy-modules.ts), so listing and reading templates do not load it. As a lazily loaded module it
 * imports nothing of the project's own code (a chunk holds its own copy of what it imports): its syntax errors are
 * Handlebars' `Exception`, which template-fields turns into its `TemplateSyntaxError`.
 */
export { parse } from 'handlebars/dist/cjs/handlebars/compiler/base.js';

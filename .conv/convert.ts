import ts from 'typescript';
import { readFileSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';

const ROOT = '/work/main';
const manifestDir = path.join(ROOT, 'shared/api/manifest');
const kebab = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

const PATH_MAP: Record<string, string> = {
  txnPath: "uuidPath('transactionId')", taskPath: "uuidPath('taskId')", docPath: "uuidPath('documentId')", jobPath: "uuidPath('jobId')",
  contactPath: "uuidPath('contactId')", packagePath: "uuidPath('packageId')", threadPath: "uuidPath('threadId')", idPath: "uuidPath('id')",
  orgPath: 'orgPath()', limitQuery: 'limitQuery()', contactFields: 'contactFields()',
};
const IMPORTS: Record<string, string> = {
  uuidPath: '#api/params', int32: '#api/params', uuid: '#api/params', dateTime: '#api/params', calendarDate: '#api/params', boolParam: '#api/params', optString: '#api/params',
  fileName: '#api/schemas/documents', contentType: '#api/schemas/documents', documentType: '#api/schemas/documents',
  limitQuery: '#api/schemas/messaging', subject: '#api/schemas/messaging', html: '#api/schemas/messaging', text: '#api/schemas/messaging', label: '#api/schemas/messaging',
  name: '#api/schemas/webhooks', url: '#api/schemas/webhooks', events: '#api/schemas/webhooks', description: '#api/schemas/webhooks', headers: '#api/schemas/webhooks',
  keyDateType: '#api/schemas/key-dates', contactFields: '#api/schemas/contacts', orgId: '#api/schemas/partner', orgPath: '#api/schemas/partner', filter: '#api/schemas/templates',
  MAX_DOCUMENT_BYTES: '#domain/documents', MAX_INLINE_BASE64_CHARS: '#domain/documents', PDF_CONTENT_TYPE: '#domain/documents', DOCUMENT_TYPES: '#domain/documents', classifyText: '#domain/documents',
};

// handler index: operationId -> { file, text, jsdoc }
interface H { file: string; init: string; jsdoc: string; fileDoc: string; imports: ts.ImportDeclaration[]; src: ts.SourceFile; others: number; otherText: string }
const handlers = new Map<string, H>();
const fnDir = path.join(ROOT, 'functions');
for (const g of readdirSync(fnDir)) {
  const d = path.join(fnDir, g);
  if (!existsSync(d) || !g.match(/^[a-z-]+$/) ) continue;
  for (const f of readdirSync(d)) {
    if (!f.endsWith('.ts')) continue;
    const file = path.join(d, f);
    const text = readFileSync(file, 'utf8');
    const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const imports = src.statements.filter(ts.isImportDeclaration);
    const fileDoc = (text.match(/^\/\*\*[\s\S]*?\*\//) ?? [''])[0];
    const hs: [string, string, string][] = [];
    for (const st of src.statements) {
      if (ts.isVariableStatement(st) && st.declarationList.declarations[0].type?.getText() === 'OperationHandler') {
        const decl = st.declarationList.declarations[0];
        const jsdoc = ts.getJSDocCommentsAndTags(decl).map((j) => j.getText()).join('\n');
        hs.push([decl.name.getText(), decl.initializer!.getText(), jsdoc]);
      }
    }
    const others = src.statements.filter((s) => !ts.isImportDeclaration(s) && !(ts.isVariableStatement(s) && s.declarationList.declarations[0].type?.getText() === 'OperationHandler')).length;
    const otherText = src.statements.filter((s) => !ts.isImportDeclaration(s) && !(ts.isVariableStatement(s) && s.declarationList.declarations[0].type?.getText() === 'OperationHandler')).map((s) => s.getFullText().replace(/^\n+/, '')).join('\n\n');
    for (const [name, init, jsdoc] of hs) handlers.set(name, { file, init, jsdoc, fileDoc, imports, src, others, otherText });
  }
}

const report: string[] = [];
for (const mf of readdirSync(manifestDir)) {
  const file = path.join(manifestDir, mf);
  const text = readFileSync(file, 'utf8');
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const plannedIssue = (text.match(/const planned = \{ status: 'planned', issue: '([^']+)' \}/) ?? [])[1];
  ts.forEachChild(src, (node) => {
    if (!ts.isVariableStatement(node)) return;
    const init = node.declarationList.declarations[0].initializer;
    if (!init || !ts.isArrayLiteralExpression(init)) return;
    for (const el of init.elements) {
      if (!ts.isObjectLiteralExpression(el)) continue;
      const props = new Map<string, string>();
      const docs = new Map<string, string>();
      for (const p of el.properties) {
        if (ts.isPropertyAssignment(p)) props.set(p.name.getText(), p.initializer.getText());
      }
      const opId = JSON.parse(props.get('operationId')!.replace(/'/g, '"'));
      const group = props.get('group')!.replace(/'/g, '');
      const availability = props.get('availability')!;
      const implemented = availability === 'implemented' || availability.includes("'implemented'");
      let schemas = props.get('schemas')!;
      for (const [k, v] of Object.entries(PATH_MAP)) schemas = schemas.replace(new RegExp(`\\b${k}\\b(?!\\()`, 'g'), v);
      schemas = schemas.replace(/contactFields\(\)\(\)/g, 'contactFields()');
      const out: string[] = [];
      const h = handlers.get(opId);
      const imports = new Map<string, Set<string>>();
      const add = (mod: string, name: string) => { if (!imports.has(mod)) imports.set(mod, new Set()); imports.get(mod)!.add(name); };
      const usesZ = /\bz\./.test(schemas);
      for (const [ident, mod] of Object.entries(IMPORTS)) if (new RegExp(`\\b${ident}\\(|\\b${ident}\\b[,)\\s]`).test(schemas) && new RegExp(`\\b${ident}\\b`).test(schemas)) add(mod, ident);
      let doc: string;
      let handlerText = '';
      const extraImports: string[] = [];
      if (implemented && h) {
        doc = h.fileDoc;
        handlerText = h.init;
        for (const imp of h.imports) {
          const t = imp.getText();
          if (t.includes("'#http/context'")) continue;
          // keep only imports used by the handler
          const clause = imp.importClause;
          if (!clause) continue;
          const names: string[] = [];
          if (clause.namedBindings && ts.isNamedImports(clause.namedBindings)) for (const e of clause.namedBindings.elements) names.push(e.getText());
          const used = names.filter((n) => { const local = n.split(' as ').pop()!.replace(/^type /, ''); return new RegExp(`\\b${local}\\b`).test(handlerText + (h.others ? h.otherText : '')); });
          if (!used.length && !(clause.name && handlerText.includes(clause.name.getText()))) continue;
          extraImports.push(`import ${clause.isTypeOnly ? 'type ' : ''}{ ${used.join(', ')} } from ${imp.moduleSpecifier.getText()};`);
        }
        if (h.others > 0) report.push(`OTHERS ${opId} in ${path.relative(ROOT, h.file)}`);
        if (h.jsdoc) report.push(`JSDOC ${opId}: ${h.jsdoc.replace(/\n/g, ' ')}`);
      } else {
        if (implemented) report.push(`MISSING HANDLER ${opId}`);
        doc = `/** \`${JSON.parse(props.get('method')!.replace(/'/g, '"'))} ${JSON.parse(props.get('path')!.replace(/'/g, '"'))}\`: ${JSON.parse(JSON.stringify(eval(props.get('summary')!)))} */`;
      }
      const lines: string[] = [];
      lines.push(doc);
      if (usesZ) lines.push("import * as z from '#api/zod';");
      lines.push(`import { ${implemented ? 'defineOperation' : 'plannedOperation'} } from '#api/operation';`);
      for (const [mod, names] of imports) lines.push(`import { ${[...names].sort().join(', ')} } from '${mod}';`);
      lines.push(...extraImports);
      lines.push('');
      if (implemented && h && h.others) { lines.push(h.otherText.trim()); lines.push(''); }
      lines.push(`export default ${implemented ? 'defineOperation' : 'plannedOperation'}({`);
      lines.push(`  operationId: '${opId}',`);
      lines.push(`  method: ${props.get('method')},`);
      lines.push(`  path: ${props.get('path')},`);
      lines.push(`  access: ${props.get('access')},`);
      if (props.get('idempotent') === 'true') lines.push('  idempotent: true,');
      lines.push(`  summary: ${props.get('summary')},`);
      if (props.get('designedHere') === 'true') lines.push('  designedHere: true,');
      if (schemas !== '() => ({})') lines.push(`  schemas: ${schemas.replace(/\n/g, '\n')},`);
      if (implemented) { if (h?.jsdoc) lines.push(`  ${h.jsdoc}`); lines.push(`  handler: ${handlerText},`); }
      else {
        const issue = availability.match(/issue: '([^']+)'/)?.[1] ?? plannedIssue ?? 'not yet filed';
        lines.push(`  planned: '${issue}',`);
      }
      lines.push('});');
      const target = path.join(ROOT, 'functions', group, `${kebab(opId)}.ts`);
      writeFileSync(target + '.new', lines.join('\n') + '\n');
      report.push(`${implemented ? 'IMPL' : 'PLAN'} ${group}/${kebab(opId)}.ts${h && h.file !== target ? ' from ' + path.relative(ROOT, h.file) : ''}`);
    }
  });
}
console.log(report.join('\n'));

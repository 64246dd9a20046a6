/**
 * Walks one operation's module graph through the layers and prints what a reader crosses:
 * `npx tsx bin/layer-walk.ts [functions/transactions/update-transaction-status.ts]`.
 *
 * The graph is esbuild's metafile of the operation module (static imports, as bundled), kept to the layers a request
 * runs through: the operation (`functions/`), use cases, repositories (`shared/db/`), events (`shared/events/`),
 * ports and pure rules (`shared/domain/`). The HTTP pipeline, API schemas and observability are left out: every
 * operation crosses them alike, and so are type-only imports (erased). Prints the files crossed, the files on an
 * import path to the outbox `Put` builder (the module that exports `outboxPut`), and every import that climbs back
 * up a layer (an edge whose importer ranks below what it imports: db → events, domain → db, db → use-cases, …).
 */
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

/**
 * Higher calls lower. Events rank just below use cases, which emit them (events have one owner), and above the
 * repositories and ports, which only read and write.
 */
const RANK: [prefix: string, rank: number, name: string][] = [
  ['functions/', 5, 'operation'],
  ['shared/use-cases/', 4, 'use-cases'],
  ['shared/events/', 3, 'events'],
  ['shared/db/', 2, 'db'],
  ['shared/ports/', 2, 'ports'],
  ['shared/domain/', 1, 'domain'],
];
const layerOf = (file: string) => RANK.find(([prefix]) => file.startsWith(prefix));

const entry = process.argv[2] ?? 'functions/transactions/update-transaction-status.ts';
const { metafile } = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent' });

const reached = new Set<string>();
const climbs: string[] = [];
const visit = (file: string): void => {
  if (reached.has(file)) return;
  reached.add(file);
  const from = layerOf(file)!;
  for (const imp of metafile.inputs[file]?.imports ?? []) {
    const to = layerOf(imp.path);
    if (!to || imp.external) continue;
    if (to[1] > from[1]) climbs.push(`${from[2]} → ${to[2]}: ${file} → ${imp.path}`);
    visit(imp.path);
  }
};
visit(entry);

const files = [...reached].sort();
// Files from which the outbox builder is reachable: the emitters and everything on the way to them.
const builder = files.find((f) => /export function outboxPut\b/.test(readFileSync(f, 'utf8')));
const reaches = new Map<string, boolean>();
const toBuilder = (file: string): boolean => {
  if (reaches.has(file)) return reaches.get(file)!;
  reaches.set(file, file === builder);
  const found = file === builder || (metafile.inputs[file]?.imports ?? []).some((i) => reached.has(i.path) && toBuilder(i.path));
  reaches.set(file, found);
  return found;
};
const onPath = files.filter(toBuilder);
console.log(files.map((f) => `  ${layerOf(f)![2].padEnd(9)} ${f}${onPath.includes(f) ? '  (to the outbox item)' : ''}`).join('\n'));
console.log(climbs.map((c) => `  climb ${c}`).join('\n'));
console.log(`${entry}: ${files.length} files crossed, ${onPath.length} of them on the way to the outbox item (${builder}), ${climbs.length} climbs back up a layer`);

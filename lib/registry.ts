/**
 * The operations registry: every module `functions/<group>/<operation>.ts` whose default export is an
 * operation, for each group of `LAMBDA_GROUPS`. Build-time and local code (CDK, the local runtime, tests, the
 * docs generator, the bench) read operations from here; a deployed function gets only its group's operations,
 * imported statically by its generated entry (lib/group-entries.ts). Adding an operation is adding its module.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isOperation, routeKeyOf, type RegisteredOperation } from '#api/operation';
import { LAMBDA_GROUPS, type LambdaGroup } from '#api/types';

/** The folder holding one folder per group. */
export const FUNCTIONS_DIR = fileURLToPath(new URL('../functions/', import.meta.url));

/** An operation with the absolute path of its module. */
export type ModuleOperation = RegisteredOperation & { readonly file: string };

/** The operation module files of a group, sorted (every `.ts` directly in its folder). */
export function operationFilesOf(group: LambdaGroup): string[] {
  const dir = path.join(FUNCTIONS_DIR, group);
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(dir, e.name))
    .sort();
}

let loading: Promise<ModuleOperation[]> | undefined;

/**
 * Every operation, grouped by folder, in `LAMBDA_GROUPS` order then file order (loaded once per process).
 * @throws Error when a module's default export is not an operation, or two operations share an operationId
 *   or a route (wiring mistakes, caught at build and test time)
 */
export function loadOperations(): Promise<ModuleOperation[]> {
  loading ??= (async () => {
    const found: ModuleOperation[] = [];
    for (const group of LAMBDA_GROUPS) {
      for (const file of operationFilesOf(group)) {
        const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
        if (!isOperation(mod.default)) {
          throw new Error(`${path.relative(process.cwd(), file)}: an operation module's default export must be defineOperation(...) or plannedOperation(...); helpers belong in shared/`);
        }
        found.push({ ...mod.default, group, file });
      }
    }
    assertUnique(found, (op) => op.operationId, 'operationId');
    assertUnique(found, routeKeyOf, 'route');
    return found;
  })();
  return loading;
}

/** The operations of one group. */
export async function operationsOf(group: LambdaGroup): Promise<ModuleOperation[]> {
  return (await loadOperations()).filter((op) => op.group === group);
}

/** Groups that have at least one operation, in `LAMBDA_GROUPS` order. */
export async function lambdaGroups(): Promise<LambdaGroup[]> {
  const ops = await loadOperations();
  return LAMBDA_GROUPS.filter((g) => ops.some((op) => op.group === g));
}

function assertUnique(ops: ModuleOperation[], keyOf: (op: ModuleOperation) => string, what: string): void {
  const seen = new Map<string, ModuleOperation>();
  for (const op of ops) {
    const key = keyOf(op);
    const other = seen.get(key);
    if (other) throw new Error(`${what} ${key} is defined twice: ${path.relative(FUNCTIONS_DIR, other.file)} and ${path.relative(FUNCTIONS_DIR, op.file)}`);
    seen.set(key, op);
  }
}

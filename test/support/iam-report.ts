/**
 * `npm run iam:report`: the offline IAM evaluation over the calls the assembly tests recorded
 * (`.data/assembly-test/calls/*.json`, written by test/support/assembly-iam.ts): how many calls and functions,
 * the refused ones, and the grants no recorded call used, per function. `--remove <FunctionLogicalId> <action>`
 * judges the same calls against a copy of the template without that action in the function's role policies, to
 * show that a missing grant is caught, e.g.
 * `npm run iam:report -- --remove TasksApiFunction245D81E5 dynamodb:UpdateItem`.
 * Exits 1 when a call is refused.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { loadCloudAssembly } from '#lib/local/assembly/cloud-assembly';
import { ASSEMBLY_ACCOUNT, ASSEMBLY_REGION } from '#lib/local/assembly/naming';
import { CALLS_DIR } from './assembly-iam.ts';
import { DeployedTemplate, editedCopy, evaluateCalls, formatDenials, unusedGrants, type AwsCall } from './iam/index.ts';

interface Recorded {
  cdkOut: string;
  stackName: string;
  calls: AwsCall[];
}

/** Removes `action` from every statement of the policies attached to the function's role (root template). */
function withoutGrant(files: Record<string, any>, fn: string, action: string): void {
  for (const template of Object.values(files).filter((f) => f.Resources)) {
    const res = template.Resources[fn];
    if (!res) continue;
    const role = res.Properties.Role['Fn::GetAtt']?.[0];
    for (const r of Object.values(template.Resources) as any[]) {
      if (r.Type !== 'AWS::IAM::Policy' || !r.Properties.Roles.some((x: any) => x.Ref === role)) continue;
      for (const st of r.Properties.PolicyDocument.Statement) {
        if (Array.isArray(st.Action)) st.Action = st.Action.filter((a: string) => a !== action);
        else if (st.Action === action) st.Action = [];
      }
    }
    return;
  }
  throw new Error(`no function ${fn} in the assembly`);
}

async function main(): Promise<number> {
  if (!existsSync(CALLS_DIR)) throw new Error(`no recorded calls in ${CALLS_DIR}: run npx vitest run --project assembly first`);
  const files = readdirSync(CALLS_DIR).filter((f) => f.endsWith('.json'));
  const i = process.argv.indexOf('--remove');
  const removal = i > 0 ? { fn: process.argv[i + 1]!, action: process.argv[i + 2]! } : undefined;
  let refused = 0;
  for (const file of files) {
    const rec = JSON.parse(readFileSync(path.join(CALLS_DIR, file), 'utf8')) as Recorded;
    const dir = removal ? editedCopy(rec.cdkOut, (f) => withoutGrant(f, removal.fn, removal.action)) : rec.cdkOut;
    try {
      const t = new DeployedTemplate(loadCloudAssembly(dir, { account: ASSEMBLY_ACCOUNT, region: ASSEMBLY_REGION, stackName: rec.stackName }));
      const { denied, allowed } = await evaluateCalls(t, rec.calls);
      const functions = [...new Set(rec.calls.map((c) => c.functionLogicalId))];
      console.log(`${file}: ${rec.calls.length} calls (${allowed.length + denied.length} distinct, KMS calls for SSE included) by ${functions.length} functions; ${denied.length} refused`);
      if (denied.length) console.log(formatDenials(denied));
      refused += denied.length;
      if (!removal) {
        const unused = unusedGrants(t, rec.calls, functions);
        console.log(`  grants no recorded call used (${unused.length}):`);
        for (const u of unused) console.log(`    ${u.functionLogicalId} ${u.action} ${u.resource}`);
      }
    } finally {
      if (removal) rmSync(dir, { recursive: true, force: true });
    }
  }
  return refused ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  },
);

/**
 * The report workers' infrastructure (lib/report-builder.ts): each worker's exact grants (report-pdf: the messages and
 * `reports/*` puts; report-zip: the messages, the documents' items and objects, the PDF, multipart puts under
 * `reports/*`), their timeout under the API's 29 s, the reports API group's grants (invoke both live aliases and
 * presign `reports/*`, no document writes, no pdf worker's S3 puts), the `reports/` lifecycle rule, and the errors
 * alarm both roll back on. Targeted assertions, no snapshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { REPORT_WORKER_TIMEOUT_SECONDS } from '#lib/report-builder';
import { synthesizeDefault, type Synthesized } from './synth.ts';

let s: Synthesized;
beforeAll(async () => {
  s = await synthesizeDefault();
}, 180_000);
afterAll(() => s?.cleanup());

/** Every statement attached to the role of the function `fnLogicalId`. */
function statementsOf(fnLogicalId: string): any[] {
  const roleId = s.resources[fnLogicalId].Properties.Role['Fn::GetAtt'][0];
  return s
    .ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as any[]);
}
const actionsOf = (id: string) => statementsOf(id).flatMap((st) => [st.Action].flat() as string[]);
/** The object prefixes (`reports/*`, `org/*`) a statement's resources name, sorted. */
const prefixesOf = (st: any): string[] =>
  [st.Resource]
    .flat()
    .map((r: any) => (r?.['Fn::Join'] ? String(r['Fn::Join'][1].at(-1)).replace(/^\//, '') : JSON.stringify(r)))
    .sort();
/** Statements granting `action` (alone or with others), as `{actions, prefixes}`. */
const grantsOf = (id: string, action: string) => statementsOf(id).filter((st) => [st.Action].flat().includes(action)).map((st) => ({ actions: [st.Action].flat().sort(), prefixes: prefixesOf(st) }));

describe('report workers infrastructure', () => {
  it('synthesizes with cdk-nag clean', () => {
    expect(s.synthError).toBeUndefined();
  });

  it('report-pdf reads messages (Query only) and puts under reports/ only', () => {
    const id = s.logicalIdOf(s.stack.reports.pdf.fn);
    const actions = actionsOf(id);
    expect(actions.filter((a) => a.startsWith('dynamodb:'))).toEqual(['dynamodb:Query']);
    expect(actions.filter((a) => a.startsWith('s3:'))).toEqual(['s3:PutObject']);
    expect(grantsOf(id, 's3:PutObject')).toEqual([{ actions: ['s3:PutObject'], prefixes: ['reports/*'] }]);
  });

  it('report-zip reads messages and documents, the documents and the PDF, and writes multipart under reports/ only', () => {
    const id = s.logicalIdOf(s.stack.reports.zip.fn);
    const actions = actionsOf(id);
    expect(actions.filter((a) => a.startsWith('dynamodb:')).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:Query']);
    expect(grantsOf(id, 's3:GetObject')).toEqual([{ actions: ['s3:GetObject'], prefixes: ['org/*', 'reports/*'] }]);
    expect(grantsOf(id, 's3:PutObject')).toEqual([{ actions: ['s3:AbortMultipartUpload', 's3:PutObject'], prefixes: ['reports/*'] }]);
    expect(actions.filter((a) => /Delete|BatchWrite|PutItem|UpdateItem/.test(a))).toEqual([]);
  });

  it('both end before the API does (29 s), with the data key to write SSE-KMS objects', () => {
    expect(REPORT_WORKER_TIMEOUT_SECONDS).toBeLessThan(29);
    for (const w of [s.stack.reports.pdf, s.stack.reports.zip]) {
      const id = s.logicalIdOf(w.fn);
      expect(s.resources[id].Properties).toMatchObject({ Timeout: REPORT_WORKER_TIMEOUT_SECONDS, MemorySize: 1024 });
      expect(actionsOf(id)).toEqual(expect.arrayContaining(['kms:GenerateDataKey', 'kms:Decrypt']));
    }
  });

  it('the reports API group invokes exactly the two live aliases and presigns reports/ only: no document reads or writes', () => {
    const reports = s.stack.functions.get('reports')!;
    const id = s.logicalIdOf(reports.fn);
    const invoke = statementsOf(id).filter((st) => [st.Action].flat().includes('lambda:InvokeFunction'));
    const key = (a: unknown) => JSON.stringify(a);
    const resources = invoke.flatMap((st) => [st.Resource].flat()).map(key);
    for (const w of [s.stack.reports.pdf, s.stack.reports.zip]) expect(resources).toContain(key(s.liveOf(w)));
    expect(resources.every((r) => [s.stack.reports.pdf, s.stack.reports.zip].some((w) => r.includes(s.logicalIdOf(w.alias!))))).toBe(true);
    expect(grantsOf(id, 's3:GetObject')).toEqual([{ actions: ['s3:GetObject'], prefixes: ['reports/*'] }]);
    expect(actionsOf(id).filter((a) => ['s3:PutObject', 's3:DeleteObject'].includes(a))).toEqual([]);
    expect(s.resources[id].Properties.Environment.Variables).toMatchObject({
      REPORT_PDF_FUNCTION: s.liveOf(s.stack.reports.pdf),
      REPORT_ZIP_FUNCTION: s.liveOf(s.stack.reports.zip),
      DOCUMENTS_BUCKET: { Ref: s.logicalIdOf(s.stack.extraction.bucket) },
    });
  });

  it('expires stored reports under reports/ by a bucket lifecycle rule', () => {
    s.template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ Id: 'expire-reports', Prefix: 'reports/', ExpirationInDays: 1, Status: 'Enabled' })]) },
    });
  });

  it('alarms on either worker\'s errors, and both deployments roll back on it', () => {
    const alarm = s.resources[s.logicalIdOf(s.stack.reports.errorsAlarm)];
    const names = JSON.stringify(alarm.Properties.Metrics);
    for (const w of [s.stack.reports.pdf, s.stack.reports.zip]) {
      expect(names).toContain(s.logicalIdOf(w.fn));
      const group = s.resources[s.logicalIdOf(w.deploymentGroup!)];
      expect(JSON.stringify(group.Properties.AlarmConfiguration.Alarms)).toContain(s.logicalIdOf(s.stack.reports.errorsAlarm));
    }
  });
});

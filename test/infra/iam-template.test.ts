/**
 * The deployed naming of the synthesized assembly (test/support/iam/template.ts over lib/local/assembly/): the names
 * and ARNs the IAM evaluation and the assembly runtime share, nested stacks included.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEPLOYED, DeployedTemplate } from '#test/support/iam/template';
import { synthesizeDefault } from './synth.ts';

let t: DeployedTemplate;

beforeAll(async () => {
  t = DeployedTemplate.load((await synthesizeDefault()).outdir);
}, 300_000);

const only = (type: string) => {
  const found = t.ofType(type);
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe('DeployedTemplate', () => {
  it('names generated resources <stackName>-<LogicalId> in account 123456789012, us-east-1', () => {
    const table = only('AWS::DynamoDB::Table');
    expect(t.stackName).toBe('tcs-dev');
    expect(t.physicalNameOf(table)).toBe(`tcs-dev-${table.logicalId}`);
    expect(t.getAtt(table, 'Arn')).toBe(`arn:aws:dynamodb:us-east-1:123456789012:table/tcs-dev-${table.logicalId}`);
    expect(DEPLOYED).toEqual({ account: '123456789012', region: 'us-east-1', partition: 'aws' });
  });

  it('gives a queue its name, URL and ARN, and a bucket a lower-case name', () => {
    const queue = t.ofType('AWS::SQS::Queue')[0]!;
    const name = t.physicalNameOf(queue);
    expect(t.ref(queue)).toBe(`https://sqs.us-east-1.amazonaws.com/123456789012/${name}`);
    expect(t.getAtt(queue, 'Arn')).toBe(`arn:aws:sqs:us-east-1:123456789012:${name}`);
    for (const bucket of t.ofType('AWS::S3::Bucket')) expect(t.physicalNameOf(bucket)).toBe(t.physicalNameOf(bucket).toLowerCase());
  });

  it("resolves a nested stack's parameters to the parent's resources", () => {
    const table = t.getAtt(only('AWS::DynamoDB::Table'), 'Arn');
    const nestedPolicies = t.assembly.nested.flatMap((n) => n.ofType('AWS::IAM::Policy').map((id) => JSON.stringify(n.resolve(n.resources[id]!.Properties))));
    expect(nestedPolicies.some((doc) => doc.includes(`"${table}"`))).toBe(true);
  });

  it('finds a nested resource by <nested stack>/<logical id>, and refuses an id in no template', () => {
    const nested = t.assembly.nested.find((n) => n.ofType('AWS::Lambda::Function').length > 0)!;
    const fn = nested.ofType('AWS::Lambda::Function')[0]!;
    expect(t.locate(`${nested.nestedId}/${fn}`)).toMatchObject({ logicalId: fn, template: nested });
    expect(() => t.locate(`${nested.nestedId}/NoSuchResource`)).toThrow('no resource with logical id');
    expect(() => t.locate('NoSuchResource')).toThrow('no resource with logical id NoSuchResource');
  });
});

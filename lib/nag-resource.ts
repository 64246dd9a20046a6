/**
 * How cdk-nag names the resource of a finding (`AwsSolutions-IAM5[Resource::<this>]`), so an acknowledgment can name
 * exactly one wildcard resource whatever the deployment environment: with an account/region-agnostic stack the
 * partition and region stay `<AWS::Partition>`/`<AWS::Region>`, with `CDK_DEFAULT_REGION` set they are literals.
 */
import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * The finding's name of `value` (an ARN, possibly with tokens): literals as they are, `Ref` as `<LogicalId>`,
 * `Fn::GetAtt` as `<LogicalId.Attribute>`, `Fn::Join` parts concatenated.
 */
export function nagResourceOf(scope: IConstruct, value: string): string {
  const part = (p: unknown): string => {
    if (typeof p === 'string') return p;
    const o = (p ?? {}) as Record<string, unknown>;
    if (typeof o.Ref === 'string') return `<${o.Ref}>`;
    if (Array.isArray(o['Fn::GetAtt'])) return `<${(o['Fn::GetAtt'] as string[]).join('.')}>`;
    if (Array.isArray(o['Fn::Join'])) {
      const [separator, parts] = o['Fn::Join'] as [string, unknown[]];
      return parts.map(part).join(separator);
    }
    return JSON.stringify(p);
  };
  return part(Stack.of(scope).resolve(value));
}

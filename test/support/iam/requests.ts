/**
 * Building blocks of the service-principal checks (./service-principals.ts, ./lambda-service.ts): a request by a
 * service principal, by a session of a role from the template, a role's assumption, and the KMS key behind an
 * encrypted topic, queue or key reference.
 */
import { rolePolicies, roleByArn, type NamedPolicy } from './policies.ts';
import type { DeployedTemplate } from './template.ts';

/** A check before judgement: who asks what of which resource, with which condition keys and identity policies. */
export interface Pending {
  /** What asks for the access, e.g. `alarm ApiAlarmsApi5xxAlarm5ED8AFDC`. */
  subject: string;
  /** A service principal (`ses.amazonaws.com`) or the session of the role a service assumes. */
  principal: string;
  action: string;
  resource: string;
  context: Record<string, string | string[]>;
  identity: NamedPolicy[];
}

/** The account field of an ARN, or undefined when it has none (S3) or is not an ARN (`*`). */
export const accountOf = (arn: string): string | undefined => /^arn:[^:]+:[^:]+:[^:]*:(\d{12}):/.exec(arn)?.[1];

/** A service principal's request (no identity policies: only the resource policy can allow it). */
export function service(subject: string, principal: string, action: string, resource: string, context: Record<string, string>): Pending {
  return { subject, principal, action, resource, context, identity: [] };
}

/** A request by a session of the role `roleArn` (its identity policies from the template), named after the subject's last word (its logical id). */
export function asRole(t: DeployedTemplate, subject: string, roleArn: string, action: string, resource: string, context: Record<string, string> = {}): Pending {
  const roleLoc = roleByArn(t, roleArn);
  if (!roleLoc) throw new Error(`${subject}: role ${roleArn} is not in the template`);
  const role = rolePolicies(t, roleLoc);
  return {
    subject,
    principal: `arn:${t.partition}:sts::${t.account}:assumed-role/${role.roleName}/${subject.split(' ').at(-1)!.replace(/[^\w+=,.@-]/g, '').slice(0, 64)}`,
    action,
    resource,
    context: { 'aws:SecureTransport': 'true', 'aws:PrincipalArn': role.roleArn, 'aws:PrincipalAccount': t.account, ...context },
    identity: role.identity,
  };
}

/** `sts:AssumeRole` by `servicePrincipal` on `roleArn`, judged against the role's trust policy. */
export function assumeRole(t: DeployedTemplate, subject: string, servicePrincipal: string, roleArn: string, sourceArn: string): Pending {
  return service(subject, servicePrincipal, 'sts:AssumeRole', roleArn, { 'aws:SourceAccount': t.account, 'aws:SourceArn': sourceArn });
}

/** The KMS key ARN a resource is encrypted with (`KmsMasterKeyId`, `KMSMasterKeyID`: ARN, key id or alias). */
export function keyArn(t: DeployedTemplate, keyRef: string | undefined): string | undefined {
  if (!keyRef) return undefined;
  if (keyRef.startsWith('arn:')) return keyRef;
  const own = t.ofType('AWS::KMS::Key').find((k) => t.ref(k) === keyRef);
  if (own) return t.getAtt(own, 'Arn');
  return `arn:${t.partition}:kms:${t.region}:${t.account}:${keyRef.startsWith('alias/') ? keyRef : `key/${keyRef}`}`;
}

/** KMS requests a service principal makes to write into a resource encrypted with `key`. */
export function kmsFor(subject: string, principal: string, key: string | undefined, actions: string[], context: Record<string, string>): Pending[] {
  return key ? actions.map((a) => service(subject, principal, a, key, context)) : [];
}

/** The template's topic with ARN `arn`, its key (`KmsMasterKeyId`), if any. */
export function topicKey(t: DeployedTemplate, arn: string): string | undefined {
  const topic = t.ofType('AWS::SNS::Topic').find((l) => t.ref(l) === arn);
  return topic ? keyArn(t, t.props(topic).KmsMasterKeyId) : undefined;
}

/** The template's queue with ARN `arn`, its key (`KmsMasterKeyId`), if any. */
export function queueKey(t: DeployedTemplate, arn: string): string | undefined {
  const queue = t.ofType('AWS::SQS::Queue').find((l) => t.getAtt(l, 'Arn') === arn);
  return queue ? keyArn(t, t.props(queue).KmsMasterKeyId) : undefined;
}

/** The KMS key of a template bucket's default encryption (`aws:kms` without a key id: the `aws/s3` key). */
export function bucketDefaultKey(t: DeployedTemplate, bucketName: string): string | undefined {
  const bucket = t.ofType('AWS::S3::Bucket').find((l) => t.ref(l) === bucketName);
  if (!bucket) return undefined;
  const rules = (t.props(bucket).BucketEncryption?.ServerSideEncryptionConfiguration ?? []) as Array<{ ServerSideEncryptionByDefault?: { SSEAlgorithm: string; KMSMasterKeyID?: string } }>;
  const sse = rules[0]?.ServerSideEncryptionByDefault;
  if (!sse?.SSEAlgorithm.startsWith('aws:kms')) return undefined;
  return keyArn(t, sse.KMSMasterKeyID ?? 'alias/aws/s3');
}

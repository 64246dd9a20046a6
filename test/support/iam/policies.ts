/**
 * The IAM policies a deployed principal or resource carries, read from the template (test/support/iam/template.ts):
 * a role's identity policies (its `Policies`, every `AWS::IAM::Policy` and `AWS::IAM::ManagedPolicy` that lists it,
 * its `ManagedPolicyArns`) and permission boundary, and the resource policies of KMS keys (`KeyPolicy`), buckets
 * (`AWS::S3::BucketPolicy`), queues (`AWS::SQS::QueuePolicy`), topics (`AWS::SNS::TopicPolicy`) and functions
 * (`AWS::Lambda::Permission`, turned into the statements Lambda adds to the function policy), and roles' trust
 * policies (`AssumeRolePolicyDocument`, the resource policy of `sts:AssumeRole`).
 */
import { awsManagedPolicy } from './managed-policies.ts';
import type { DeployedTemplate, Located } from './template.ts';

/** One statement of an IAM policy document (IAM JSON policy reference, "Policy elements"). */
export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Principal?: '*' | Record<string, string | string[]>;
  NotPrincipal?: Record<string, string | string[]>;
  Condition?: Record<string, Record<string, unknown>>;
}

/** An IAM policy document. */
export interface PolicyDocument {
  Version?: string;
  Statement: PolicyStatement | PolicyStatement[];
}

/** A policy with where it came from: a logical id, `<RoleId>.Policies`, or a managed policy ARN. */
export interface NamedPolicy {
  name: string;
  source: string;
  document: PolicyDocument;
}

/** What an IAM role may do: its identity policies and its permission boundary, if any. */
export interface RolePolicies {
  roleLogicalId: string;
  roleArn: string;
  roleName: string;
  identity: NamedPolicy[];
  boundary?: NamedPolicy;
}

/** The statements of a document as an array. */
export const statementsOf = (doc: PolicyDocument): PolicyStatement[] => (Array.isArray(doc.Statement) ? doc.Statement : [doc.Statement]);

/** A string-or-list policy element as a list. */
export const listOf = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * The policies of the role with `roleLogicalId`.
 * @throws Error when the role is not in the template, or attaches a managed policy that is neither in the template
 *   nor vendored (test/support/iam/managed-policies.ts)
 */
export function rolePolicies(t: DeployedTemplate, at: Located | string): RolePolicies {
  const role = typeof at === 'string' ? t.locate(at) : at;
  const roleLogicalId = role.logicalId;
  if (role.resource.Type !== 'AWS::IAM::Role') throw new Error(`${roleLogicalId} is a ${role.resource.Type}, not an AWS::IAM::Role`);
  const props = t.props(role);
  const roleName = t.ref(role);
  const identity: NamedPolicy[] = [];
  for (const p of (props.Policies ?? []) as Array<{ PolicyName: string; PolicyDocument: PolicyDocument }>) {
    identity.push({ name: p.PolicyName, source: `${roleLogicalId}.Policies`, document: p.PolicyDocument });
  }
  for (const arn of (props.ManagedPolicyArns ?? []) as string[]) identity.push(managedPolicy(t, arn));
  for (const type of ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy']) {
    for (const loc of t.ofType(type)) {
      const p = t.props(loc);
      if (!listOf<string>(p.Roles).includes(roleName)) continue;
      identity.push({ name: p.PolicyName ?? p.ManagedPolicyName ?? loc.logicalId, source: loc.logicalId, document: p.PolicyDocument });
    }
  }
  const boundary = typeof props.PermissionsBoundary === 'string' ? managedPolicy(t, props.PermissionsBoundary) : undefined;
  return { roleLogicalId, roleArn: t.getAtt(role, 'Arn'), roleName, identity, ...(boundary ? { boundary } : {}) };
}

/** A managed policy by ARN: a customer-managed one from the template, else a vendored AWS-managed one. */
function managedPolicy(t: DeployedTemplate, arn: string): NamedPolicy {
  const own = t.ofType('AWS::IAM::ManagedPolicy').find((loc) => t.ref(loc) === arn);
  if (own) return { name: own.logicalId, source: own.logicalId, document: t.props(own).PolicyDocument };
  return { name: arn.split('/').pop()!, source: arn, document: awsManagedPolicy(arn) };
}

/** The role whose ARN is `roleArn`, or undefined when the template has none. */
export function roleByArn(t: DeployedTemplate, roleArn: string): Located | undefined {
  return t.ofType('AWS::IAM::Role').find((loc) => t.getAtt(loc, 'Arn') === roleArn);
}

/**
 * The execution role of a function (its `Role` property) and that role's policies.
 * @throws Error when the function or its role is not in the template
 */
export function functionPolicies(t: DeployedTemplate, at: Located | string): RolePolicies & { functionArn: string; functionName: string } {
  const fn = typeof at === 'string' ? t.locate(at) : at;
  const functionLogicalId = fn.logicalId;
  if (fn.resource.Type !== 'AWS::Lambda::Function') throw new Error(`${functionLogicalId} is a ${fn.resource.Type}, not an AWS::Lambda::Function`);
  const roleArn = String(fn.template.resolve(fn.resource.Properties?.Role));
  const role = roleByArn(t, roleArn);
  if (!role) throw new Error(`function ${functionLogicalId}: its role ${roleArn} is not in the template`);
  return { ...rolePolicies(t, role), functionArn: t.getAtt(fn, 'Arn'), functionName: t.ref(fn) };
}

/** A resource policy with the resource it governs and the template resources it came from. */
export interface ResourcePolicy {
  /** The governed resource: key, queue, topic or function ARN; the bucket ARN for a bucket and its objects. */
  arn: string;
  document: PolicyDocument;
  sources: string[];
}

/**
 * The resource policies in the template, looked up by the ARN a request names (an object ARN finds its bucket's
 * policy; a qualified function ARN its function's). Resources of these kinds with no policy resource get what AWS
 * gives them: a KMS key without `KeyPolicy` the default key policy (account root `kms:*`), a topic without a
 * `TopicPolicy` the default topic policy (its account, `AWS:SourceOwner`); a queue, bucket or function none.
 */
export class ResourcePolicies {
  private readonly byKey = new Map<string, ResourcePolicy>();
  /** Keys (see `keyOf`) of the template's keys, buckets, queues, topics and functions. */
  private readonly known = new Map<string, string>();

  constructor(private readonly t: DeployedTemplate) {
    for (const loc of t.ofType('AWS::KMS::Key')) {
      const arn = t.getAtt(loc, 'Arn');
      this.know(arn, loc.logicalId);
      const doc = (t.props(loc).KeyPolicy as PolicyDocument | undefined) ?? defaultKeyPolicy(t.account);
      this.add(arn, doc.Statement, loc.logicalId);
    }
    for (const loc of t.ofType('AWS::S3::Bucket')) this.know(t.getAtt(loc, 'Arn'), loc.logicalId);
    for (const loc of t.ofType('AWS::S3::BucketPolicy')) {
      const p = t.props(loc);
      this.add(`arn:${t.partition}:s3:::${p.Bucket as string}`, p.PolicyDocument.Statement, loc.logicalId);
    }
    for (const loc of t.ofType('AWS::SQS::Queue')) this.know(t.getAtt(loc, 'Arn'), loc.logicalId);
    for (const loc of t.ofType('AWS::SQS::QueuePolicy')) {
      const p = t.props(loc);
      for (const url of p.Queues as string[]) this.add(queueArnOfUrl(url, t.partition), p.PolicyDocument.Statement, loc.logicalId);
    }
    const topicsWithPolicy = new Set<string>();
    for (const loc of t.ofType('AWS::SNS::TopicPolicy')) {
      const p = t.props(loc);
      for (const arn of p.Topics as string[]) {
        topicsWithPolicy.add(arn);
        this.add(arn, p.PolicyDocument.Statement, loc.logicalId);
      }
    }
    for (const loc of t.ofType('AWS::SNS::Topic')) {
      const arn = t.ref(loc);
      this.know(arn, loc.logicalId);
      if (!topicsWithPolicy.has(arn)) this.add(arn, defaultTopicPolicy(arn, t.account).Statement, `${loc.logicalId} (default topic policy)`);
    }
    for (const loc of t.ofType('AWS::IAM::Role')) {
      const arn = t.getAtt(loc, 'Arn');
      this.know(arn, loc.logicalId);
      // A trust policy names no Resource: it governs its role, which the simulator needs spelled out.
      const trust = listOf<PolicyStatement>(t.props(loc).AssumeRolePolicyDocument.Statement).map((s) => (s.Resource || s.NotResource ? s : { ...s, Resource: arn }));
      this.add(arn, trust, `${loc.logicalId} (trust policy)`);
    }
    for (const loc of t.ofType('AWS::Lambda::Function')) this.know(t.getAtt(loc, 'Arn'), loc.logicalId);
    for (const loc of t.ofType('AWS::Lambda::Permission')) {
      const p = t.props(loc);
      const fn = String(p.FunctionName);
      const arn = fn.startsWith('arn:') ? fn : `arn:${t.partition}:lambda:${t.region}:${t.account}:function:${fn}`;
      this.add(arn, lambdaPermissionStatement(loc, p, arn, t.partition), loc.logicalId);
    }
  }

  /** The policy governing `resourceArn`, or undefined when it has none here. */
  for(resourceArn: string): ResourcePolicy | undefined {
    for (const key of keysOf(resourceArn)) {
      const found = this.byKey.get(key);
      if (found) return found;
    }
    return undefined;
  }

  /** The logical id of the template resource `resourceArn` names (a bucket for an object), or undefined. */
  logicalIdOf(resourceArn: string): string | undefined {
    for (const key of keysOf(resourceArn)) {
      const id = this.known.get(key);
      if (id) return id;
    }
    return undefined;
  }

  private know(arn: string, logicalId: string): void {
    this.known.set(keysOf(arn)[0]!, logicalId);
  }

  private add(arn: string, statements: PolicyStatement | PolicyStatement[], source: string): void {
    const key = keysOf(arn)[0]!;
    const entry = this.byKey.get(key) ?? { arn: key, document: { Version: '2012-10-17', Statement: [] }, sources: [] };
    (entry.document.Statement as PolicyStatement[]).push(...listOf(statements));
    entry.sources.push(source);
    this.byKey.set(key, entry);
  }
}

/**
 * Keys a request's resource ARN may be filed under, most specific first: an S3 object → its bucket ARN; a
 * qualified function ARN → itself, then the unqualified one; anything else → itself.
 */
function keysOf(arn: string): string[] {
  const s3 = /^(arn:[\w-]+:s3:::[^/]+)/.exec(arn);
  if (s3) return [s3[1]!];
  const fn = /^(arn:[\w-]+:lambda:[^:]*:\d*:function:[^:]+)(:.+)?$/.exec(arn);
  if (fn) return fn[2] ? [arn, fn[1]!] : [arn];
  return [arn];
}

/** `https://sqs.<region>.amazonaws.com/<account>/<name>` → `arn:aws:sqs:<region>:<account>:<name>`. */
export function queueArnOfUrl(url: string, partition = 'aws'): string {
  const m = /^https:\/\/sqs\.([^.]+)\.[^/]+\/(\d{12})\/([^/]+)$/.exec(url);
  if (!m) throw new Error(`not an SQS queue URL: ${url}`);
  return `arn:${partition}:sqs:${m[1]}:${m[2]}:${m[3]}`;
}

/** The key policy KMS gives a key created without one: the account root may do everything (delegation to IAM). */
const defaultKeyPolicy = (account: string): PolicyDocument => ({
  Version: '2012-10-17',
  Statement: [{ Sid: 'Enable IAM User Permissions', Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${account}:root` }, Action: 'kms:*', Resource: '*' }],
});

/** The access policy SNS gives a topic created without one (the topic owner's account). */
const defaultTopicPolicy = (topicArn: string, account: string): PolicyDocument => ({
  Version: '2012-10-17',
  Statement: [
    {
      Sid: '__default_statement_ID',
      Effect: 'Allow',
      Principal: { AWS: '*' },
      Action: ['SNS:GetTopicAttributes', 'SNS:SetTopicAttributes', 'SNS:AddPermission', 'SNS:RemovePermission', 'SNS:DeleteTopic', 'SNS:Subscribe', 'SNS:ListSubscriptionsByTopic', 'SNS:Publish'],
      Resource: topicArn,
      Condition: { StringEquals: { 'AWS:SourceOwner': account } },
    },
  ],
});

/**
 * The function-policy statement Lambda adds for an `AWS::Lambda::Permission` (Lambda API `AddPermission`): a
 * service principal as `Service`, an account id as its root, `SourceArn` as `ArnLike AWS:SourceArn`,
 * `SourceAccount` as `StringEquals AWS:SourceAccount`.
 */
function lambdaPermissionStatement(loc: Located, p: Record<string, any>, functionArn: string, partition: string): PolicyStatement {
  const principal = String(p.Principal);
  const condition: Record<string, Record<string, unknown>> = {};
  if (p.SourceArn) condition.ArnLike = { 'AWS:SourceArn': p.SourceArn };
  if (p.SourceAccount) condition.StringEquals = { 'AWS:SourceAccount': p.SourceAccount };
  if (p.PrincipalOrgID) condition.StringEquals = { ...condition.StringEquals, 'aws:PrincipalOrgID': p.PrincipalOrgID };
  if (p.FunctionUrlAuthType) condition.StringEquals = { ...condition.StringEquals, 'lambda:FunctionUrlAuthType': p.FunctionUrlAuthType };
  return {
    Sid: loc.logicalId,
    Effect: 'Allow',
    Principal: principal === '*' ? '*' : principal.endsWith('.amazonaws.com') ? { Service: principal } : { AWS: /^\d{12}$/.test(principal) ? `arn:${partition}:iam::${principal}:root` : principal },
    Action: String(p.Action),
    Resource: functionArn,
    ...(Object.keys(condition).length ? { Condition: condition } : {}),
  };
}

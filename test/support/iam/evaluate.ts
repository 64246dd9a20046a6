/**
 * Judges the AWS calls that deployed functions make against the template's IAM: each call runs through
 * @cloud-copilot/iam-simulate with the identity policies of the function's execution role (and its permission
 * boundary) and the resource policy of the target when the template holds it. Same-account rules apply: a call is
 * allowed when either side allows it and nothing denies it; a KMS key's policy must allow the role itself or
 * delegate to IAM through an account-root statement.
 */
import { impliedKmsCalls } from './implied-calls.ts';
import { functionPolicies, listOf, ResourcePolicies, statementsOf, type RolePolicies } from './policies.ts';
import { accountOf } from './requests.ts';
import { authorize, type Decision } from './simulate.ts';
import type { DeployedTemplate } from './template.ts';

/** One AWS call a function made, as the assembly runtime records it (deployed naming). */
export interface AwsCall {
  /**
   * Logical id of the `AWS::Lambda::Function` that made the call; `<nested stack id>/<logical id>` when nested stacks
   * share the id (see `DeployedTemplate.locate`).
   */
  functionLogicalId: string;
  /** IAM action, `service:Action`, e.g. `dynamodb:PutItem`. */
  action: string;
  /** Resource ARN (`*` for actions without resource types, e.g. `xray:PutTraceSegments`). */
  resource: string;
  /** Condition keys of the request (e.g. `kms:ViaService`, `dynamodb:LeadingKeys`). */
  context?: Record<string, string | string[]>;
  /** For a KMS call AWS makes for another call (./implied-calls.ts): that call, `<action> <resource>`. */
  impliedBy?: string;
}

/** A judged call. */
export interface CallVerdict extends AwsCall {
  decision: Decision;
  /** Why: the granting statements, or what is missing (names function, role, action and resource). */
  reason: string;
  /** How many recorded calls were this same request. */
  count: number;
}

/** Distinct calls, split by outcome. `Invalid` (a request the simulator rejects) counts as denied. */
export interface Evaluation {
  denied: CallVerdict[];
  allowed: CallVerdict[];
}

/**
 * Judges every call, and the KMS calls AWS makes with the function's credentials for them (an object put into an
 * SSE-KMS bucket, a message sent to an encrypted queue or topic: ./implied-calls.ts) unless
 * `opts.impliedKmsCalls` is false. Identical calls (function, action, resource, context) are judged once, with
 * their `count`. The request carries `aws:SecureTransport: true` (the SDK uses HTTPS), `aws:PrincipalArn`,
 * `aws:PrincipalAccount` and `aws:RequestedRegion`, under the call's own context.
 * @throws Error when a call names a function that is not in the template
 */
export async function evaluateCalls(t: DeployedTemplate, calls: readonly AwsCall[], opts: { impliedKmsCalls?: boolean } = {}): Promise<Evaluation> {
  const resources = new ResourcePolicies(t);
  const roles = new Map<string, ReturnType<typeof functionPolicies>>();
  const distinct = new Map<string, CallVerdict>();
  const all = opts.impliedKmsCalls === false ? calls : [...calls, ...impliedKmsCalls(t, calls)];
  for (const call of all) {
    const key = JSON.stringify([call.functionLogicalId, call.action, call.resource, call.context ?? {}, call.impliedBy ?? '']);
    const seen = distinct.get(key);
    if (seen) {
      seen.count++;
      continue;
    }
    distinct.set(key, { ...call, decision: 'Allowed', reason: '', count: 1 });
  }
  for (const verdict of distinct.values()) {
    let role = roles.get(verdict.functionLogicalId);
    if (!role) roles.set(verdict.functionLogicalId, (role = functionPolicies(t, verdict.functionLogicalId)));
    const { decision, reason } = await authorize({
      principal: `arn:${t.partition}:sts::${t.account}:assumed-role/${role.roleName}/${role.functionName}`,
      action: verdict.action,
      resource: verdict.resource,
      resourceAccount: accountOf(verdict.resource) ?? t.account,
      context: {
        'aws:SecureTransport': 'true',
        'aws:PrincipalArn': role.roleArn,
        'aws:PrincipalAccount': t.account,
        'aws:RequestedRegion': t.region,
        ...verdict.context,
      },
      identity: role.identity,
      ...(role.boundary ? { boundary: role.boundary } : {}),
      ...(resources.for(verdict.resource) ? { resourcePolicy: resources.for(verdict.resource)! } : {}),
    });
    verdict.decision = decision;
    const via = verdict.impliedBy ? ` (for ${verdict.impliedBy})` : '';
    verdict.reason = decision === 'Allowed' ? reason : `${verdict.functionLogicalId} (role ${role.roleName}) may not ${verdict.action} on ${verdict.resource}${via}: ${reason}`;
  }
  const verdicts = [...distinct.values()];
  return { denied: verdicts.filter((v) => v.decision !== 'Allowed'), allowed: verdicts.filter((v) => v.decision === 'Allowed') };
}

/** One line per denial (`<decision>: <function> (role <name>) may not <action> on <resource>: <why>`), for a failing test's message. */
export function formatDenials(denied: readonly CallVerdict[]): string {
  return denied.map((d) => `${d.decision}: ${d.reason}`).join('\n');
}

/** An `Allow` statement's (action, resource) pair that no recorded call matched. */
export interface UnusedGrant {
  functionLogicalId: string;
  /** The policy's name and where it came from (logical id or managed policy ARN). */
  policy: string;
  source: string;
  /** The action pattern as written, e.g. `dynamodb:DeleteItem` or `s3:*`. */
  action: string;
  /** The resource pattern as written (resolved), e.g. `arn:aws:dynamodb:…:table/tcs-dev-DataTable…/index/*`. */
  resource: string;
}

/**
 * The grants no call used: per function, every (action, resource) pair of its role's `Allow` statements that no
 * call of that function matches (IAM wildcards `*` and `?`, actions case-insensitive). Statements with
 * `NotAction` or `NotResource` are skipped (no pairs to list). For a report of what could be trimmed; a grant
 * used only on a path the run did not take is listed too.
 * @param functions the functions to report (default: every function of the template)
 */
export function unusedGrants(t: DeployedTemplate, calls: readonly AwsCall[], functions?: readonly string[]): UnusedGrant[] {
  const located = functions ? functions.map((id) => t.locate(id)) : t.ofType('AWS::Lambda::Function');
  const unused: UnusedGrant[] = [];
  for (const fn of located) {
    const functionLogicalId = fn.logicalId;
    const own = calls.filter((c) => c.functionLogicalId === functionLogicalId);
    const role: RolePolicies = functionPolicies(t, fn);
    for (const policy of role.identity) {
      for (const s of statementsOf(policy.document)) {
        if (s.Effect !== 'Allow' || !s.Action || !s.Resource) continue;
        for (const action of listOf(s.Action)) {
          for (const resource of listOf(s.Resource)) {
            const used = own.some((c) => wildcardMatch(action, c.action, true) && wildcardMatch(resource, c.resource, false));
            if (!used) unused.push({ functionLogicalId, policy: policy.name, source: policy.source, action, resource });
          }
        }
      }
    }
  }
  return unused;
}

/** IAM's `*` (any run of characters) and `?` (one character) matching of a whole value. */
export function wildcardMatch(pattern: string, value: string, ignoreCase: boolean): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, ignoreCase ? 'is' : 's');
  return re.test(value);
}

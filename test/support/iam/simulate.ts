/**
 * One authorization decision by @cloud-copilot/iam-simulate (an offline implementation of AWS's policy evaluation
 * logic: identity and resource policies, same-account rules, KMS key-policy trust, permission boundaries), with a
 * reason an engineer can act on. Shared by the evaluation of recorded calls (./evaluate.ts) and the
 * service-principal checks (./service-principals.ts).
 */
import { getDenialReasons, getGrantReasons, runSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import type { NamedPolicy, ResourcePolicy } from './policies.ts';

/** `Invalid`: the simulator rejected the input (unknown action, ARN of the wrong type for it, malformed policy). */
export type Decision = 'Allowed' | 'ImplicitlyDenied' | 'ExplicitlyDenied' | 'Invalid';

/** One request to judge. */
export interface AuthRequest {
  /** A role session ARN (`arn:aws:sts::<account>:assumed-role/<role>/<session>`) or a service principal. */
  principal: string;
  /** `service:Action`, e.g. `dynamodb:PutItem`. */
  action: string;
  /** The resource ARN, or `*` for actions without resource types. */
  resource: string;
  /** The account that owns the resource (S3 ARNs carry none). */
  resourceAccount: string;
  context: Record<string, string | string[]>;
  /** Identity policies of the principal (none for a service principal). */
  identity: NamedPolicy[];
  boundary?: NamedPolicy;
  /** The resource's policy when the template holds the resource. */
  resourcePolicy?: ResourcePolicy;
}

/** The decision and why. */
export interface AuthVerdict {
  decision: Decision;
  reason: string;
}

/** Judges `req`. Never throws for a denial; a rejected input is `Invalid` with the simulator's message. */
export async function authorize(req: AuthRequest): Promise<AuthVerdict> {
  const simulation: Simulation = {
    request: { principal: req.principal, action: req.action, resource: { resource: req.resource, accountId: req.resourceAccount }, contextVariables: req.context },
    identityPolicies: req.identity.map((p) => ({ name: p.name, policy: p.document })),
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    ...(req.resourcePolicy ? { resourcePolicy: req.resourcePolicy.document } : {}),
    ...(req.boundary ? { permissionBoundaryPolicies: [{ name: req.boundary.name, policy: req.boundary.document }] } : {}),
  };
  const result = await runSimulation(simulation, {});
  if (result.resultType === 'error') return { decision: 'Invalid', reason: `the simulator rejected the request: ${result.errors.message} ${JSON.stringify(result.errors)}` };
  const decision = result.overallResult as Decision;
  const analyses = result.resultType === 'single' ? [result.result.analysis] : result.results.map((r) => r.analysis);
  const analysis = analyses[0];
  if (!analysis) return { decision, reason: 'no policy names a resource matching the pattern' };
  if (decision === 'Allowed') return { decision, reason: `allowed by ${getGrantReasons(analysis).map((g) => describePolicy(req, g.policyType, 'policyIdentifier' in g ? g.policyIdentifier : undefined, g.statementId, g.statementIndex)).join('; ')}` };
  const reasons = getDenialReasons(analysis).map((d) =>
    d.denialType === 'Explicit'
      ? `explicitly denied by ${describePolicy(req, d.policyType, d.policyIdentifier, d.statementId, d.statementIndex)}`
      : implicitReason(req, d.policyType),
  );
  return { decision, reason: reasons.filter(Boolean).join('; ') || 'denied' };
}

function describePolicy(req: AuthRequest, type: string, id: string | undefined, sid: string | undefined, index: number): string {
  const statement = sid ? `statement ${sid}` : `statement #${index}`;
  if (type === 'resource') {
    const sources = req.resourcePolicy?.sources ?? [];
    return `resource policy ${sources.length === 1 ? sources[0] : `of ${req.resource}`} ${statement}`;
  }
  if (type === 'identity') return `identity policy ${id ?? ''} ${statement}`;
  if (type === 'pb') return `permission boundary ${id ?? ''} ${statement}`;
  return `${type} policy ${id ?? ''} ${statement}`;
}

function implicitReason(req: AuthRequest, type: string): string {
  if (type === 'identity') {
    if (!req.identity.length && req.principal.endsWith('.amazonaws.com')) return ''; // a service principal has none: only the resource side counts
    return req.identity.length ? `no statement of the identity policies (${req.identity.map((p) => p.name).join(', ')}) allows it` : `${req.principal} has no identity policies`;
  }
  if (type === 'resource') {
    if (!req.resourcePolicy) return `${req.resource} has no resource policy in the template that allows it`;
    const kms = req.action.toLowerCase().startsWith('kms:');
    return kms
      ? `the key policy (${req.resourcePolicy.sources.join(', ')}) neither allows ${req.principal} nor delegates to IAM with an account-root statement`
      : `the resource policy (${req.resourcePolicy.sources.join(', ')}) does not allow ${req.principal}`;
  }
  if (type === 'pb') return `the permission boundary ${req.boundary?.name ?? ''} does not allow it`;
  return `implicitly denied by the ${type} policies`;
}

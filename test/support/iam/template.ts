/**
 * The synthesized stack as IAM sees it once deployed: every resource of the root template and its nested stacks,
 * with intrinsics resolved to concrete ARNs in the assembly runtime's fixed deployed naming (account
 * `123456789012`, region `us-east-1`, partition `aws`, generated names `<stackName>-<LogicalId>`).
 *
 * Loading and resolving are lib/local/assembly/cloud-assembly.ts's (nested templates found through the
 * `*.assets.json` manifest, `Ref`/`Fn::GetAtt`/`Fn::Join`/`Fn::Sub`/`Fn::Select`/`Fn::Split`/`Fn::If` with
 * conditions, pseudo parameters, nested-stack parameters and outputs) and names are
 * lib/local/assembly/naming.ts's, so the ARNs a recorded call carries and the ARNs in the policies come from one
 * rule. This module adds look-ups by logical id across stacks and edited copies for tests.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCloudAssembly, type CfnResource, type CloudAssembly, type LoadedTemplate } from '#lib/local/assembly/cloud-assembly';
import { ASSEMBLY_ACCOUNT, ASSEMBLY_REGION } from '#lib/local/assembly/naming';

export type { CfnResource, CloudAssembly, LoadedTemplate };

/** Account, region and partition every resolved ARN uses. */
export const DEPLOYED = { account: ASSEMBLY_ACCOUNT, region: ASSEMBLY_REGION, partition: 'aws' } as const;

/** A resource found by logical id: the template (root or nested) that holds it. */
export interface Located {
  readonly logicalId: string;
  readonly template: LoadedTemplate;
  readonly resource: CfnResource;
}

/**
 * A loaded assembly with look-ups across the root and nested stacks. Logical ids are unique within one template
 * only (nested stacks built from one construct repeat them): the methods take a `Located` resource, or a logical id
 * that `locate` finds in exactly one template, so a caller never judges the wrong resource.
 */
export class DeployedTemplate {
  readonly partition = DEPLOYED.partition;

  /** @param assembly as lib/local/assembly/cloud-assembly.ts loads it (its account and region are the ARNs'). */
  constructor(readonly assembly: CloudAssembly) {}

  get account(): string {
    return this.assembly.naming.account;
  }

  get region(): string {
    return this.assembly.naming.region;
  }

  /**
   * Loads a `cdk synth` output directory (`manifest.json`, the stack template, nested templates).
   * @throws Error when `dir` holds no stack or a nested template is missing
   */
  static load(dir: string): DeployedTemplate {
    return new DeployedTemplate(loadCloudAssembly(dir, { account: DEPLOYED.account, region: DEPLOYED.region }));
  }

  /** The deployed root stack name (the manifest's `stackName`, e.g. `tcs-dev`). */
  get stackName(): string {
    return this.assembly.stackName;
  }

  /** Every resource of `type` in every template (root first), skipping those whose `Condition` is false. */
  ofType(type: string): Located[] {
    return this.assembly.templates.flatMap((template) => template.ofType(type).map((logicalId) => ({ logicalId, template, resource: template.resources[logicalId]! })));
  }

  /**
   * A resource by logical id, or by `<nested stack's logical id in the root>/<logical id>` when nested stacks share
   * the id (e.g. `PartnerTierNestedStack…FC39A064/AuthorizerFunctionEB19F618`).
   * @throws Error when no template, or more than one, holds the id
   */
  locate(id: string): Located {
    const slash = id.indexOf('/');
    const logicalId = slash < 0 ? id : id.slice(slash + 1);
    const scope = slash < 0 ? this.assembly.templates : this.assembly.nested.filter((n) => n.nestedId === id.slice(0, slash));
    const found = scope.filter((t) => logicalId in t.resources);
    if (found.length !== 1) throw new Error(`${found.length === 0 ? 'no' : 'more than one'} resource with logical id ${id}`);
    const template = found[0]!;
    return { logicalId, template, resource: template.resources[logicalId]! };
  }

  /** The resource's `Properties`, intrinsics resolved. */
  props(at: Located | string): Record<string, any> {
    const loc = this.at(at);
    return loc.template.resolve(loc.resource.Properties ?? {}) as Record<string, any>;
  }

  /** What `{ Ref: logicalId }` returns in the deployed stack (a name, a queue URL, a topic ARN, a key id…). */
  ref(at: Located | string): string {
    const loc = this.at(at);
    return String(loc.template.resolve({ Ref: loc.logicalId }));
  }

  /** What `{ 'Fn::GetAtt': [logicalId, attr] }` returns in the deployed stack. */
  getAtt(at: Located | string, attr = 'Arn'): string {
    const loc = this.at(at);
    return String(loc.template.resolve({ 'Fn::GetAtt': [loc.logicalId, attr] }));
  }

  /**
   * The deployed physical name of a resource: the table, function, role, bucket, queue or topic name, a KMS key's
   * id. The assembly runtime names its local resources by the same rule.
   */
  physicalNameOf(at: Located | string): string {
    const loc = this.at(at);
    const attr = NAME_ATTRIBUTE[loc.resource.Type];
    return attr ? this.getAtt(loc, attr) : this.ref(loc);
  }

  /** A located resource as is; a logical id looked up (`locate`). */
  private at(at: Located | string): Located {
    return typeof at === 'string' ? this.locate(at) : at;
  }
}

/** Types whose `Ref` is not their name (queue URL, topic and state-machine ARN): the attribute that is. */
const NAME_ATTRIBUTE: Record<string, string> = {
  'AWS::SQS::Queue': 'QueueName',
  'AWS::SNS::Topic': 'TopicName',
  'AWS::StepFunctions::StateMachine': 'Name',
};

/** `template.physicalNameOf(logicalId)` as a function. */
export function physicalNameOf(template: DeployedTemplate, at: Located | string): string {
  return template.physicalNameOf(at);
}

/**
 * Copies the JSON files of an assembly that loading reads (manifest, templates, asset manifests) into a new temporary
 * directory, after `edit` has changed the parsed files in place (keyed by file name, e.g.
 * `TransactionCoordinationStack.template.json`). For tests that judge a changed template (a grant removed).
 * @returns the new directory (the caller removes it)
 */
export function editedCopy(dir: string, edit: (files: Record<string, any>) => void): string {
  const files: Record<string, any> = {};
  const wanted = (f: string) => f === 'manifest.json' || f.endsWith('.template.json') || f.endsWith('.assets.json');
  for (const name of readdirSync(dir).filter(wanted)) files[name] = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
  edit(files);
  const out = mkdtempSync(path.join(os.tmpdir(), 'tcs-iam-'));
  for (const [name, json] of Object.entries(files)) writeFileSync(path.join(out, name), JSON.stringify(json));
  return out;
}

/** The template file of the root stack in `files` (as `editedCopy` hands them). */
export function rootTemplateFile(files: Record<string, any>): string {
  const manifest = files['manifest.json'] as { artifacts: Record<string, { type: string; properties?: { templateFile?: string } }> };
  const stack = Object.values(manifest.artifacts).find((a) => a.type === 'aws:cloudformation:stack');
  if (!stack?.properties?.templateFile) throw new Error('no CloudFormation stack in manifest.json');
  return stack.properties.templateFile;
}

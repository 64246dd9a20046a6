/**
 * Reads a synthesized cloud assembly (`cdk.out`) as CloudFormation would deploy it: the service stack's template,
 * its nested stacks' templates (asset files beside it), each function's bundled asset directory, and the values of
 * intrinsic functions (`Ref`, `Fn::GetAtt`, `Fn::Join`, `Fn::Sub`, `Fn::Select`, `Fn::Split`, `Fn::If`) in a fixed
 * deployed naming (lib/local/assembly/naming.ts). The assembly runtime (lib/local/assembly/runtime.ts) wires
 * what it finds here; nothing is read from the CDK sources.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { arnOf, physicalNameOf, refOf, type DeployedNaming } from './naming.ts';

/** One resource of a template. */
export interface CfnResource {
  Type: string;
  Properties?: Record<string, any>;
  Condition?: string;
}

/** A template with its resolver (`value` → concrete JSON). */
export interface LoadedTemplate {
  /** Logical id of the nested stack resource in its parent, or undefined for the root stack. */
  nestedId?: string;
  resources: Record<string, CfnResource>;
  /** Resolves intrinsics in `value` (deep). @throws Error on an unsupported intrinsic or unknown logical id */
  resolve(value: unknown): any;
  /** Logical ids of resources of `type`. */
  ofType(type: string): string[];
}

/** The loaded assembly: root stack, nested stacks and asset locations. */
export interface CloudAssembly {
  dir: string;
  stackName: string;
  naming: DeployedNaming;
  root: LoadedTemplate;
  nested: LoadedTemplate[];
  /** Every template, root first. */
  templates: LoadedTemplate[];
  /** Absolute directory of a function's bundled code (its `Code.S3Key` asset), or undefined for inline code. */
  assetDirOf(fn: CfnResource): string | undefined;
}

/**
 * Loads `dir` (a `cdk synth` output). The stack artifact is the one of type `aws:cloudformation:stack`.
 * @param naming account and region of the run; `stackName` replaces the assembly's (so runs on one DynamoDB Local
 *   do not share tables)
 * @param overrides values for resources the runtime replaces (e.g. the HTTP API's endpoint → the local URL),
 *   keyed `LogicalId` (its `Ref`) or `LogicalId.Attribute` (its `Fn::GetAtt`)
 * @throws Error when `dir` holds no stack, or a nested stack's template is missing
 */
export function loadCloudAssembly(dir: string, naming: Omit<DeployedNaming, 'stackName'> & { stackName?: string }, overrides: Record<string, string> = {}): CloudAssembly {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { artifacts: Record<string, { type: string; properties?: { templateFile?: string; stackName?: string } }> };
  const stack = Object.entries(manifest.artifacts).find(([, a]) => a.type === 'aws:cloudformation:stack');
  if (!stack) throw new Error(`${dir}: no CloudFormation stack in manifest.json (run npm run synth)`);
  const stackName = naming.stackName ?? stack[1].properties?.stackName ?? stack[0];
  const full: DeployedNaming = { ...naming, stackName };
  const rootTemplate = JSON.parse(readFileSync(path.join(dir, stack[1].properties!.templateFile!), 'utf8'));
  const outputs = new Map<string, (name: string) => string>();
  const root = loadTemplate(rootTemplate, full, overrides, {}, undefined, (stackId, name) => {
    const read = outputs.get(stackId);
    if (!read) throw new Error(`nested stack ${stackId} is not loaded`);
    return read(name);
  });
  const nested: LoadedTemplate[] = [];
  for (const id of root.ofType('AWS::CloudFormation::Stack')) {
    const res = root.resources[id]!;
    const url = String(root.resolve(res.Properties!.TemplateURL));
    const file = nestedFileByHash(dir, url);
    if (!file) throw new Error(`nested stack ${id}: template ${url} not found in ${dir}`);
    const params = root.resolve(res.Properties!.Parameters ?? {}) as Record<string, string>;
    const json = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    const child = loadTemplate(json, full, overrides, params, id);
    outputs.set(id, (name) => String(child.resolve(json.Outputs?.[name]?.Value)));
    nested.push(child);
  }
  return {
    dir,
    stackName,
    naming: full,
    root,
    nested,
    templates: [root, ...nested],
    assetDirOf(fn) {
      const key = fn.Properties?.Code?.S3Key;
      if (typeof key !== 'string') return undefined;
      const assetDir = path.join(dir, `asset.${key.replace(/\.zip$/, '')}`);
      return existsSync(assetDir) ? assetDir : undefined;
    },
  };
}

/** Nested templates are assets named by hash in the `*.assets.json` manifest; the URL ends with `<hash>.json`. */
function nestedFileByHash(dir: string, url: string): string | undefined {
  const hash = path.basename(url, '.json');
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.assets.json'))) {
    const files = (JSON.parse(readFileSync(path.join(dir, f), 'utf8')).files ?? {}) as Record<string, { source: { path: string } }>;
    if (files[hash]) return files[hash]!.source.path;
  }
  return undefined;
}

/** Builds a resolver over one template. */
function loadTemplate(
  template: any,
  naming: DeployedNaming,
  overrides: Record<string, string>,
  parameters: Record<string, string>,
  nestedId?: string,
  nestedOutputs?: (stackId: string, output: string) => string,
): LoadedTemplate {
  const resources = (template.Resources ?? {}) as Record<string, CfnResource>;
  const conditions = (template.Conditions ?? {}) as Record<string, unknown>;
  const scopedNaming: DeployedNaming = nestedId ? { ...naming, stackName: `${naming.stackName}-${nestedId.slice(0, 20)}` } : naming;
  const pseudo: Record<string, string> = {
    'AWS::Partition': 'aws',
    'AWS::Region': naming.region,
    'AWS::AccountId': naming.account,
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': scopedNaming.stackName,
    'AWS::StackId': `arn:aws:cloudformation:${naming.region}:${naming.account}:stack/${scopedNaming.stackName}/00000000-0000-0000-0000-000000000000`,
    'AWS::NoValue': '',
  };

  const ref = (id: string): string => {
    if (id in overrides) return overrides[id]!;
    if (id in pseudo) return pseudo[id]!;
    if (id in parameters) return parameters[id]!;
    const res = resources[id];
    if (!res) throw new Error(`Ref to unknown logical id ${id}`);
    return refOf(scopedNaming, id, res.Type, namingProps(res));
  };
  const getAtt = (id: string, attr: string): string => {
    const key = `${id}.${attr}`;
    if (key in overrides) return overrides[key]!;
    const res = resources[id];
    if (!res) throw new Error(`Fn::GetAtt of unknown logical id ${id}`);
    if (res.Type === 'AWS::CloudFormation::Stack' && attr.startsWith('Outputs.')) {
      if (!nestedOutputs) throw new Error(`nested stack output ${key} is not available`);
      return nestedOutputs(id, attr.slice('Outputs.'.length));
    }
    return arnOf(scopedNaming, id, res.Type, attr, namingProps(res));
  };
  const condition = (name: string): boolean => Boolean(resolve(conditions[name]));
  // The properties a name or ARN is made from (an alias's function, explicit names), resolved.
  const namingProps = (res: CfnResource): Record<string, any> => {
    const props = { ...(res.Properties ?? {}) };
    for (const key of ['FunctionName', 'Name', 'TableName', 'QueueName', 'BucketName', 'RoleName', 'TopicName', 'StateMachineName']) if (props[key] !== undefined) props[key] = resolve(props[key]);
    return props;
  };

  function resolve(value: unknown): any {
    if (Array.isArray(value)) return value.map(resolve);
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value);
    if (entries.length === 1) {
      const [fn, arg] = entries[0]! as [string, any];
      switch (fn) {
        case 'Ref':
          return ref(arg);
        case 'Fn::GetAtt':
          return Array.isArray(arg) ? getAtt(arg[0], arg[1]) : getAtt(...(String(arg).split('.', 2) as [string, string]));
        case 'Fn::Join':
          return (resolve(arg[1]) as unknown[]).join(arg[0]);
        case 'Fn::Select':
          return (resolve(arg[1]) as unknown[])[Number(resolve(arg[0]))];
        case 'Fn::Split':
          return String(resolve(arg[1])).split(arg[0]);
        case 'Fn::Sub': {
          const [text, vars] = Array.isArray(arg) ? [arg[0] as string, resolve(arg[1]) as Record<string, string>] : [arg as string, {}];
          return text.replace(/\$\{([^}!]+)\}/g, (_, name: string) => (name in vars ? vars[name]! : name.includes('.') ? getAtt(...(name.split('.', 2) as [string, string])) : ref(name)));
        }
        case 'Fn::If':
          return condition(arg[0]) ? resolve(arg[1]) : resolve(arg[2]);
        case 'Fn::Equals':
          return JSON.stringify(resolve(arg[0])) === JSON.stringify(resolve(arg[1]));
        case 'Fn::Not':
          return !resolve(arg[0]);
        case 'Fn::And':
          return (arg as unknown[]).every((c) => resolve(c));
        case 'Fn::Or':
          return (arg as unknown[]).some((c) => resolve(c));
        case 'Condition':
          return condition(arg);
        case 'Fn::Base64':
          return Buffer.from(String(resolve(arg))).toString('base64');
        default:
          if (fn.startsWith('Fn::')) throw new Error(`unsupported intrinsic ${fn}`);
      }
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, resolve(v)]));
  }

  return {
    nestedId,
    resources,
    resolve,
    ofType: (type) => Object.keys(resources).filter((id) => resources[id]!.Type === type && (!resources[id]!.Condition || condition(resources[id]!.Condition!))),
  };
}

/**
 * Synthesizes the app for the infra tests: through the same `configureApp` as `bin/app.ts`, with cdk.json's
 * context (feature flags), bundling skipped (no esbuild run) and validation findings kept out of the synth
 * exception (`failSynthOnValidationErrors: false`: cdk-nag 3 writes them to `validation-report.json`), so a
 * finding fails one test, not the whole file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, type CfnElement, type NestedStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { configureApp } from '#lib/app';
import { loadOperations, type ModuleOperation } from '#lib/registry';
import type { TransactionCoordinationStack } from '#lib/stack';
import type { ServiceFunction } from '#lib/service-function';

export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };

export interface Synthesized {
  /** Cloud assembly directory (holds `validation-report.json`); removed by `cleanup`. */
  readonly outdir: string;
  readonly stack: TransactionCoordinationStack;
  readonly template: Template;
  /** The template's `Resources`, by logical id. */
  readonly resources: Record<string, Resource>;
  /** What `app.synth()` threw (unacknowledged findings would), or undefined. */
  readonly synthError: unknown;
  /** `[logicalId, resource]` of every resource of `type`. */
  ofType(type: string): [string, Resource][];
  /** The logical id of an L2 construct's default child (e.g. a function, queue, table). */
  logicalIdOf(construct: { node: { defaultChild?: unknown } }): string;
  /**
   * How the template names what invokers call (`ServiceFunction.live`): `{ Ref: <alias> }` (an alias's Ref is its
   * ARN) with safe deployments, else `{ 'Fn::GetAtt': [<function>, 'Arn'] }`.
   */
  liveOf(fn: ServiceFunction): unknown;
  /** A nested stack's template (e.g. `stack.httpApi.routesStack`), with its resources and `ofType`. */
  nested(stack: NestedStack): { template: Template; resources: Record<string, Resource>; ofType(type: string): [string, Resource][] };
  cleanup(): void;
}

let shared: Promise<Synthesized> | undefined;

/**
 * The default app (cdk.json's context, every operation), synthesized once per worker: the infra files share their
 * modules (vitest project `unit`, `isolate: false`), so each reads the same assembly instead of synthesizing its
 * own. Read-only: its `cleanup` does nothing; the directory is removed when the worker exits.
 */
export function synthesizeDefault(): Promise<Synthesized> {
  shared ??= synthesize().then((s) => {
    process.once('exit', s.cleanup);
    return { ...s, cleanup: () => {} };
  });
  return shared;
}

/**
 * Synthesizes once into a temporary directory, with every operation of the registry (or `opts.operations`).
 * @param context extra context over cdk.json's (e.g. `{ webhookConcurrency: 4 }`)
 * @param opts.operations the operations to build the stack from, e.g. the registry's with extra capabilities
 */
export async function synthesize(context: Record<string, unknown> = {}, opts: { operations?: readonly ModuleOperation[] } = {}): Promise<Synthesized> {
  const operations = opts.operations ?? (await loadOperations());
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'tcs-cdk-'));
  const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'));
  const app = new App({
    outdir,
    context: { ...cdkJson.context, ...context, 'aws:cdk:bundling-stacks': [], '@aws-cdk/core:failSynthOnValidationErrors': false },
  });
  let stack: TransactionCoordinationStack;
  try {
    stack = configureApp(app, operations); // throws on invalid context
  } catch (err) {
    rmSync(outdir, { recursive: true, force: true });
    throw err;
  }
  let synthError: unknown;
  try {
    app.synth(); // runs cdk-nag, writes outdir/validation-report.json
  } catch (err) {
    synthError = err;
  }
  const template = Template.fromStack(stack); // reuses the assembly above (no second synthesis)
  const resources = template.toJSON().Resources as Record<string, Resource>;
  return {
    outdir,
    stack,
    template,
    resources,
    synthError,
    ofType: (type) => Object.entries(resources).filter(([, r]) => r.Type === type),
    logicalIdOf: (construct) => stack.getLogicalId(construct.node.defaultChild as CfnElement),
    liveOf: (fn) => {
      const target = fn.alias ?? fn.fn;
      const id = (target.node.defaultChild as CfnElement).stack.getLogicalId(target.node.defaultChild as CfnElement);
      return fn.alias ? { Ref: id } : { 'Fn::GetAtt': [id, 'Arn'] };
    },
    nested: (nestedStack) => {
      const nestedTemplate = Template.fromStack(nestedStack);
      const nestedResources = nestedTemplate.toJSON().Resources as Record<string, Resource>;
      return { template: nestedTemplate, resources: nestedResources, ofType: (type) => Object.entries(nestedResources).filter(([, r]) => r.Type === type) };
    },
    cleanup: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

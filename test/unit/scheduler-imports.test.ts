/**
 * Schedule writes go behind the outbox (issue 24, shared/use-cases/schedule-requests.ts): no API group bundles the
 * EventBridge Scheduler client or the scheduler port that loads it; the outbox relay (functions/webhook-fanout) does.
 * Each bundle's graph comes from esbuild (test/support/group-bundles.ts), as test/unit/kms-imports.test.ts does for
 * the KMS client; the relay's own bundle is the control that the check finds the client where it is.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LambdaGroup } from '#api/types';
import { apiGroupGraphs, bundleGraphs, importsPackage, ROOT, type BundleGraph } from '../support/group-bundles.ts';

/** The port, its AWS adapter, and the client. */
const schedulerParts = (graph: BundleGraph): string[] => [
  ...(importsPackage(graph, '@aws-sdk/client-scheduler') ? ['@aws-sdk/client-scheduler'] : []),
  ...graph.files.filter((f) => f === 'shared/ports/scheduler.ts' || f.startsWith('shared/ports/scheduler/')),
];

let groups: Map<LambdaGroup, BundleGraph>;
beforeAll(async () => {
  groups = await apiGroupGraphs();
}, 120_000);

describe('the EventBridge Scheduler client and the API groups', () => {
  it('finds it where it is (the check can fail): the outbox relay holds the client, the port and the relay', async () => {
    const entry = path.join(ROOT, 'functions/webhook-fanout/handler.ts');
    const relay = (await bundleGraphs([entry], true)).get(entry)!;
    expect(schedulerParts(relay)).toEqual(expect.arrayContaining(['@aws-sdk/client-scheduler', 'shared/ports/scheduler.ts', 'shared/ports/scheduler/aws.ts']));
    expect(relay.files).toContain('shared/use-cases/schedule-relay.ts');
  });

  it('no API group bundles the Scheduler client or port; the groups that schedule request it through the outbox', () => {
    expect(groups.size).toBeGreaterThan(10);
    const offenders = [...groups].filter(([, graph]) => schedulerParts(graph).length).map(([group, graph]) => `${group}: ${schedulerParts(graph).join(', ')}`);
    expect(offenders).toEqual([]);
    for (const group of ['transactions', 'messaging', 'key-dates', 'account'] as const) expect(groups.get(group)?.files, group).toContain('shared/use-cases/schedule-requests.ts');
  });
});

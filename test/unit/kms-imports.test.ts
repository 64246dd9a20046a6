/**
 * The API groups verify OAuth access tokens with the public key the OAuth function published in the table
 * (shared/use-cases/access-tokens.ts), so no group bundles the KMS client or the signing-key port that loads it
 * (issue 24: ~50 KB of every group). Each group's bundle graph comes from esbuild (test/support/group-bundles.ts); the
 * OAuth function's own bundle is the control that the check finds the client where it is.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LambdaGroup } from '#api/types';
import { apiGroupGraphs, bundleGraphs, importsPackage, ROOT, type BundleGraph } from '../support/group-bundles.ts';

/** What a function needs only to sign: the port (whose adapters it loads) and the KMS adapter. */
const SIGNER_FILES = ['shared/ports/token-signer.ts', 'shared/ports/token-signer/kms.ts'];
const signingParts = (graph: BundleGraph): string[] => [...(importsPackage(graph, '@aws-sdk/client-kms') ? ['@aws-sdk/client-kms'] : []), ...graph.files.filter((f) => SIGNER_FILES.includes(f))];

let groups: Map<LambdaGroup, BundleGraph>;
beforeAll(async () => {
  groups = await apiGroupGraphs();
}, 120_000);

describe('the KMS client and the API groups', () => {
  it('finds it where it is (the check can fail): the OAuth function holds the KMS client, the signer port and the key cache it publishes for', async () => {
    const entry = path.join(ROOT, 'functions/oauth/handler.ts');
    const oauth = (await bundleGraphs([entry], false)).get(entry)!;
    expect(signingParts(oauth)).toEqual(['@aws-sdk/client-kms', ...SIGNER_FILES]);
    expect(oauth.files).toContain('shared/db/signing-keys.ts');
  });

  it('no API group bundles the KMS client or the signing-key port; each verifies with the published key', () => {
    expect(groups.size).toBeGreaterThan(10);
    const offenders = [...groups].filter(([, graph]) => signingParts(graph).length).map(([group, graph]) => `${group}: ${signingParts(graph).join(', ')}`);
    expect(offenders).toEqual([]);
    for (const [group, graph] of groups) expect(graph.files, group).toContain('shared/use-cases/signing-key-cache.ts');
  });
});

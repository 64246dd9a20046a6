/** Every implemented operation has a handler in its group's Lambda, and no handler serves an unknown or planned operation. */
import { describe, expect, it } from 'vitest';
import { lambdaGroups, operationsOfGroup } from '#api/operations';
import { groupModules } from '#functions/handlers';
import { groupHandler } from '#http/pipeline';
import { transactionsOperations } from '#api/manifest/transactions';

describe('group handlers match the manifest', () => {
  it.each(lambdaGroups.map((g) => [g]))('%s', async (group) => {
    const mod = await groupModules[group]();
    const implemented = operationsOfGroup(group)
      .filter((op) => op.availability.status === 'implemented')
      .map((op) => op.operationId)
      .sort();
    expect(Object.keys(mod.operations).sort()).toEqual(implemented);
    expect(typeof mod.handler).toBe('function');
    // The function resolves exactly its group's routes (and bundles no other group's schemas).
    expect(mod.manifest).toEqual(operationsOfGroup(group));
  });

  it('every group of the manifest has a handler module', () => {
    expect(Object.keys(groupModules).sort()).toEqual([...lambdaGroups].sort());
  });

  it("refuses to wire a group's handler with another group's operations", () => {
    expect(() => groupHandler('documents', transactionsOperations, {})).toThrow(/belongs to group transactions, not documents/);
  });
});

/**
 * The local counterpart of the deployed API functions: one `groupHandler` per group over the registry's
 * operations, built on first use. Every local handler is given the catalog, as the deployed function of a
 * group using the `catalog` capability is.
 */
import { catalogEntryOf } from '#api/operation';
import type { LambdaGroup } from '#api/types';
import { groupHandler, type GroupHandler } from '#http/pipeline';
import { loadOperations, type ModuleOperation } from '#lib/registry';
import { createRouter, type Router } from '#lib/local/router';

/** What the local HTTP server needs: the router over every operation and each group's handler. */
export interface LocalApiHandlers {
  route: Router<ModuleOperation>;
  handlerOf(group: LambdaGroup): GroupHandler;
}

let loading: Promise<LocalApiHandlers> | undefined;

/** Loads the registry once and returns the router and the group handlers. */
export function localApiHandlers(): Promise<LocalApiHandlers> {
  loading ??= loadOperations().then((ops) => {
    const catalog = ops.map(catalogEntryOf);
    const handlers = new Map<LambdaGroup, GroupHandler>();
    return {
      route: createRouter(ops),
      handlerOf(group) {
        let h = handlers.get(group);
        if (!h) {
          h = groupHandler(group, ops.filter((op) => op.group === group), { catalog });
          handlers.set(group, h);
        }
        return h;
      },
    };
  });
  return loading;
}

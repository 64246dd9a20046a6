/**
 * Per-request pipeline state. Middlewares read it from middy's `request.internal.pipeline`; the final handler,
 * which middy calls with `(event, context)` only, finds the same object through the invocation context. It is
 * one object under one key because Powertools' middlewares replace `request.internal` with a copy (keeping its
 * keys) to register their cleanup.
 */
import type middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { PipelineState } from '#http/context';

const byContext = new WeakMap<object, PipelineState>();

/** The state of a middy request (created on first use). */
export function stateOf(request: middy.Request): PipelineState {
  const internal = request.internal as { pipeline?: PipelineState };
  const state = (internal.pipeline ??= {} as PipelineState);
  byContext.set(request.context, state);
  return state;
}

/** The state the middlewares built for this invocation. */
export function stateOfContext(context: Context): PipelineState {
  const state = byContext.get(context);
  if (!state) throw new Error('pipeline state missing');
  return state;
}

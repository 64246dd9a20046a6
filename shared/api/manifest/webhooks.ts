/**
 * Manifest: spec "Webhooks" — the event catalog and webhook subscriptions (list, create, read, replace,
 * delete, deliveries, secret rotation, test delivery). Subscription ids (`id`) are uuids. See also spec
 * "Events" for the event types and the delivery contract.
 */
import * as z from '#api/zod';
import type { OperationSpec } from '#api/types';
import { boolParam, int32, uuid } from '#api/params';

const implemented = { status: 'implemented' } as const;
const idPath = z.object({ id: uuid() });

/** Subscription fields shared by create and replace (spec "Webhook subscription"). */
const name = () => z.string().check(z.trim(), z.minLength(1), z.maxLength(200));
const url = () => z.url('must be a URL').check(z.maxLength(2048));
/** Event types, or `*` for all; at least one. */
const events = () =>
  z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))).check(z.minLength(1), z.maxLength(100));
const description = () => z.string().check(z.maxLength(2000));
const headers = () => z.record(z.string().check(z.maxLength(256)), z.string().check(z.maxLength(4096)));

export const webhooksOperations: OperationSpec[] = [
  {
    operationId: 'listWebhookEvents',
    method: 'GET',
    path: '/api/v1/webhook-events',
    access: 'read',
    idempotent: false,
    group: 'webhooks',
    summary: 'The catalog of event types available to the key.',
    schemas: () => ({}),
    availability: implemented,
  },
  {
    operationId: 'listWebhooks',
    method: 'GET',
    path: '/api/v1/webhooks',
    access: 'read',
    idempotent: false,
    group: 'webhooks',
    summary: "The organization's webhook subscriptions (secrets masked).",
    schemas: () => ({ query: z.object({ includeInactive: z.optional(boolParam()) }) }),
    availability: implemented,
  },
  {
    operationId: 'createWebhook',
    method: 'POST',
    path: '/api/v1/webhooks',
    access: 'actions',
    idempotent: false,
    group: 'webhooks',
    summary: 'Creates a subscription; the response shows the full signing secret once.',
    schemas: () => ({
      body: z.object({
        name: name(),
        url: url(),
        events: events(),
        description: z.optional(description()),
        headers: z.optional(headers()),
      }),
    }),
    availability: implemented,
  },
  {
    operationId: 'getWebhook',
    method: 'GET',
    path: '/api/v1/webhooks/{id}',
    access: 'read',
    idempotent: false,
    group: 'webhooks',
    summary: 'One subscription with its secret masked.',
    schemas: () => ({ path: idPath }),
    availability: implemented,
  },
  {
    operationId: 'updateWebhook',
    method: 'PUT',
    path: '/api/v1/webhooks/{id}',
    access: 'actions',
    idempotent: false,
    group: 'webhooks',
    summary: 'Replaces a subscription; isActive re-enables one paused by the circuit breaker.',
    schemas: () => ({
      path: idPath,
      body: z.object({
        name: name(),
        url: url(),
        events: events(),
        description: z.optional(description()),
        headers: z.optional(headers()),
        isActive: z.optional(z.boolean()),
        circuitBreakerEnabled: z.optional(z.boolean()),
        timeoutSeconds: z.optional(int32({ min: 1, max: 30 })),
      }),
    }),
    availability: implemented,
  },
  {
    operationId: 'deleteWebhook',
    method: 'DELETE',
    path: '/api/v1/webhooks/{id}',
    access: 'actions',
    idempotent: false,
    group: 'webhooks',
    summary: 'Deletes a subscription.',
    schemas: () => ({ path: idPath }),
    availability: implemented,
  },
  {
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/api/v1/webhooks/{id}/deliveries',
    access: 'read',
    idempotent: false,
    group: 'webhooks',
    summary: 'Recent delivery attempts with status, latency, error and next retry.',
    schemas: () => ({
      path: idPath,
      query: z.object({
        limit: z.optional(int32({ min: 1, max: 100 })),
        offset: z.optional(int32({ min: 0 })),
      }),
    }),
    availability: implemented,
  },
  {
    operationId: 'regenerateWebhookSecret',
    method: 'POST',
    path: '/api/v1/webhooks/{id}/regenerate-secret',
    access: 'actions',
    idempotent: false,
    group: 'webhooks',
    summary: 'Rotates the signing secret and returns the new one once.',
    schemas: () => ({ path: idPath }),
    availability: implemented,
  },
  {
    operationId: 'testWebhook',
    method: 'POST',
    path: '/api/v1/webhooks/{id}/test',
    access: 'actions',
    idempotent: false,
    group: 'webhooks',
    summary: 'Sends a webhook.test delivery to the subscription.',
    schemas: () => ({ path: idPath }),
    availability: implemented,
  },
];

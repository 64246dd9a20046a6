/**
 * Manifest: spec "Webhooks" — the event catalog and webhook subscriptions (list, create, read, replace,
 * delete, deliveries, secret rotation, test delivery). Subscription ids (`id`) are uuids. See also spec
 * "Events" for the event types and the delivery contract.
 */
import { z } from 'zod';
import type { OperationSpec } from '#api/types';
import { boolParam, int32, uuid } from '#api/params';

const planned = { status: 'planned', issue: '#4 webhooks' } as const;
const idPath = z.object({ id: uuid() });

/** Subscription fields shared by create and replace (spec "Webhook subscription"). */
const name = () => z.string().trim().min(1).max(200);
const url = () => z.url('must be a URL').max(2048);
/** Event types, or `*` for all; at least one. */
const events = () => z.array(z.string().trim().min(1).max(100)).min(1).max(100);
const description = () => z.string().max(2000);
const headers = () => z.record(z.string().max(256), z.string().max(4096));

export const webhooksOperations: OperationSpec[] = [
  {
    operationId: 'listWebhookEvents',
    method: 'GET',
    path: '/api/v1/webhook-events',
    access: 'read',
    idempotent: false,
    group: 'webhooks',
    summary: 'The catalog of event types available to the key.',
    schemas: {},
    availability: planned,
  },
  {
    operationId: 'listWebhooks',
    method: 'GET',
    path: '/api/v1/webhooks',
    access: 'read',
    idempotent: false,
    group: 'webhooks',
    summary: "The organization's webhook subscriptions (secrets masked).",
    schemas: { query: z.object({ includeInactive: boolParam().optional() }) },
    availability: planned,
  },
  {
    operationId: 'createWebhook',
    method: 'POST',
    path: '/api/v1/webhooks',
    access: 'actions',
    idempotent: false,
    group: 'webhooks',
    summary: 'Creates a subscription; the response shows the full signing secret once.',
    schemas: {
      body: z.object({
        name: name(),
        url: url(),
        events: events(),
        description: description().optional(),
        headers: headers().optional(),
      }),
    },
    availability: planned,
  },
  {
    operationId: 'getWebhook',
    method: 'GET',
    path: '/api/v1/webhooks/{id}',
    access: 'read',
    idempotent: false,
    group: 'webhooks',
    summary: 'One subscription with its secret masked.',
    schemas: { path: idPath },
    availability: planned,
  },
  {
    operationId: 'updateWebhook',
    method: 'PUT',
    path: '/api/v1/webhooks/{id}',
    access: 'actions',
    idempotent: false,
    group: 'webhooks',
    summary: 'Replaces a subscription; isActive re-enables one paused by the circuit breaker.',
    schemas: {
      path: idPath,
      body: z.object({
        name: name(),
        url: url(),
        events: events(),
        description: description().optional(),
        headers: headers().optional(),
        isActive: z.boolean().optional(),
        circuitBreakerEnabled: z.boolean().optional(),
        timeoutSeconds: int32({ min: 1, max: 30 }).optional(),
      }),
    },
    availability: planned,
  },
  {
    operationId: 'deleteWebhook',
    method: 'DELETE',
    path: '/api/v1/webhooks/{id}',
    access: 'actions',
    idempotent: false,
    group: 'webhooks',
    summary: 'Deletes a subscription.',
    schemas: { path: idPath },
    availability: planned,
  },
  {
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/api/v1/webhooks/{id}/deliveries',
    access: 'read',
    idempotent: false,
    group: 'webhooks',
    summary: 'Recent delivery attempts with status, latency, error and next retry.',
    schemas: {
      path: idPath,
      query: z.object({
        limit: int32({ min: 1, max: 100 }).optional(),
        offset: int32({ min: 0 }).optional(),
      }),
    },
    availability: planned,
  },
  {
    operationId: 'regenerateWebhookSecret',
    method: 'POST',
    path: '/api/v1/webhooks/{id}/regenerate-secret',
    access: 'actions',
    idempotent: false,
    group: 'webhooks',
    summary: 'Rotates the signing secret and returns the new one once.',
    schemas: { path: idPath },
    availability: planned,
  },
  {
    operationId: 'testWebhook',
    method: 'POST',
    path: '/api/v1/webhooks/{id}/test',
    access: 'actions',
    idempotent: false,
    group: 'webhooks',
    summary: 'Sends a webhook.test delivery to the subscription.',
    schemas: { path: idPath },
    availability: planned,
  },
];

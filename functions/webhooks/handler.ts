/** Lambda for the `webhooks` group: event catalog, subscriptions, deliveries, secret rotation, test. */
import { groupHandler } from '#http/pipeline';
import { webhooksOperations } from '#api/manifest/webhooks';
import { listWebhookEvents } from './webhook-events.ts';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, regenerateWebhookSecret, updateWebhook } from './subscriptions.ts';
import { listWebhookDeliveries, testWebhook } from './deliveries.ts';

export const operations = { listWebhookEvents, listWebhooks, createWebhook, getWebhook, updateWebhook, deleteWebhook, listWebhookDeliveries, regenerateWebhookSecret, testWebhook };
/** The group's operations (manifest): the only routes this function resolves. */
export const manifest = webhooksOperations;
export const handler = groupHandler('webhooks', manifest, operations);

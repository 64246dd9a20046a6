/** Lambda for the `webhooks` group: event catalog, subscriptions, deliveries, secret rotation, test. */
import { groupHandler } from '#http/pipeline';
import { listWebhookEvents } from './webhook-events.ts';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, regenerateWebhookSecret, updateWebhook } from './subscriptions.ts';
import { listWebhookDeliveries, testWebhook } from './deliveries.ts';

export const operations = { listWebhookEvents, listWebhooks, createWebhook, getWebhook, updateWebhook, deleteWebhook, listWebhookDeliveries, regenerateWebhookSecret, testWebhook };
export const handler = groupHandler('webhooks', operations);

/**
 * Webhook subscriptions: list (`includeInactive`), create (full secret once), get (masked), replace
 * (`isActive: true` resets the circuit breaker), delete, and secret rotation (full new secret once).
 */
import type { OperationHandler } from '#http/context';
import { createWebhook as create, deleteWebhook as remove, getWebhook as get, listWebhooks as list, replaceWebhook, rotateWebhookSecret, toPublicWebhook } from '#db/webhooks';
import { assertValidSubscription } from './webhook-input.ts';

export const listWebhooks: OperationHandler = async ({ query }, { principal }) => {
  const subs = await list(principal.orgId);
  return { body: { data: subs.filter((s) => query.includeInactive || s.isActive).map(toPublicWebhook) } };
};

export const createWebhook: OperationHandler = async ({ body }, { principal, now }) => {
  await assertValidSubscription(body);
  const s = await create(principal.orgId, body, now);
  return { body: { data: { ...toPublicWebhook(s), secret: s.secret } } };
};

export const getWebhook: OperationHandler = async ({ path }, { principal }) => ({
  body: { data: toPublicWebhook(await get(principal.orgId, path.id)) },
});

export const updateWebhook: OperationHandler = async ({ path, body }, { principal, now }) => {
  await get(principal.orgId, path.id);
  await assertValidSubscription(body);
  return { body: { data: toPublicWebhook(await replaceWebhook(principal.orgId, path.id, body, now)) } };
};

export const deleteWebhook: OperationHandler = async ({ path }, { principal }) => {
  await remove(principal.orgId, path.id);
  return { body: { deleted: true, id: path.id } };
};

export const regenerateWebhookSecret: OperationHandler = async ({ path }, { principal, now }) => {
  const s = await rotateWebhookSecret(principal.orgId, path.id, now);
  return { body: { data: { ...toPublicWebhook(s), secret: s.secret } } };
};

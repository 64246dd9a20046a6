/**
 * Webhook subscriptions (spec "Webhook subscription"): `PK = ORG#<orgId>`, `SK = WEBHOOK#<id>`, so fan-out
 * reads an organization's subscriptions with one `Query`. The signing secret is stored (it is needed to
 * sign) and returned in full only by create and rotate; reads show a masked prefix. The circuit breaker
 * state lives on the item: `consecutiveFailures`, `pausedAt`, `pausedReason`.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { db, tableName } from '#db/client';
import { orgPk } from '#db/keys';
import { transactWrite } from '#db/transact';
import { maskSecret, newSigningSecret } from '#events/signing';
import { NotFound } from '#domain/errors';
import { config } from '#ports/config';

/** Consecutive failed deliveries that pause a subscription (when `circuitBreakerEnabled`). */
export const CIRCUIT_BREAKER_THRESHOLD = config.webhookBreakerThreshold;
export const DEFAULT_TIMEOUT_SECONDS = 10;

export interface WebhookSubscription {
  id: string;
  orgId: string;
  name: string;
  url: string;
  events: string[];
  description: string | null;
  headers: Record<string, string>;
  isActive: boolean;
  circuitBreakerEnabled: boolean;
  timeoutSeconds: number;
  secret: string;
  consecutiveFailures: number;
  pausedAt: string | null;
  pausedReason: 'circuit_breaker' | null;
  createdAt: string;
  updatedAt: string;
}

/** The subscription as the API returns it: the secret masked. */
export function toPublicWebhook(s: WebhookSubscription) {
  const { secret, orgId: _orgId, ...rest } = s;
  return { ...rest, secretPrefix: maskSecret(secret) };
}

const key = (orgId: string, id: string) => ({ PK: orgPk(orgId), SK: `WEBHOOK#${id}` });

function fromItem(item: Record<string, any>): WebhookSubscription {
  const { id, orgId, name, url, events, description, headers, isActive, circuitBreakerEnabled, timeoutSeconds, secret, consecutiveFailures, pausedAt, pausedReason, createdAt, updatedAt } = item;
  return {
    id, orgId, name, url, events, description: description ?? null, headers: headers ?? {}, isActive, circuitBreakerEnabled,
    timeoutSeconds: timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS, secret, consecutiveFailures: consecutiveFailures ?? 0,
    pausedAt: pausedAt ?? null, pausedReason: pausedReason ?? null, createdAt, updatedAt,
  };
}

export interface WebhookInput {
  name: string;
  url: string;
  events: string[];
  description?: string | null;
  headers?: Record<string, string> | null;
  isActive?: boolean | null;
  circuitBreakerEnabled?: boolean | null;
  timeoutSeconds?: number | null;
}

/** Creates a subscription with a new signing secret (returned in full by the caller once). */
export async function createWebhook(orgId: string, input: WebhookInput, now: Date): Promise<WebhookSubscription> {
  const s: WebhookSubscription = {
    id: randomUUID(),
    orgId,
    name: input.name,
    url: input.url,
    events: [...new Set(input.events)],
    description: input.description ?? null,
    headers: input.headers ?? {},
    isActive: input.isActive ?? true,
    circuitBreakerEnabled: input.circuitBreakerEnabled ?? true,
    timeoutSeconds: input.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
    secret: newSigningSecret(),
    consecutiveFailures: 0,
    pausedAt: null,
    pausedReason: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await transactWrite([{ Put: { TableName: tableName(), Item: { ...key(orgId, s.id), entity: 'Webhook', ...s }, ConditionExpression: 'attribute_not_exists(SK)' } }]);
  return s;
}

/** @throws NotFound */
export async function getWebhook(orgId: string, id: string, consistent = false): Promise<WebhookSubscription> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(orgId, id), ConsistentRead: consistent }));
  if (!out.Item) throw new NotFound('Webhook');
  return fromItem(out.Item);
}

/** All of an organization's subscriptions (one query). */
export async function listWebhooks(orgId: string): Promise<WebhookSubscription[]> {
  const out = await db().send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk AND begins_with(SK, :w)', ExpressionAttributeValues: { ':pk': orgPk(orgId), ':w': 'WEBHOOK#' } }),
  );
  return (out.Items ?? []).map(fromItem).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Does a subscription want this event type? `*` means all; `webhook.test` goes only to its target. */
export const wantsEvent = (s: Pick<WebhookSubscription, 'events'>, eventType: string) => s.events.includes('*') || s.events.includes(eventType);

/**
 * Replaces a subscription's settings (spec `PUT`). Setting `isActive: true` also resets the circuit breaker.
 * @throws NotFound
 */
export async function replaceWebhook(orgId: string, id: string, input: WebhookInput, now: Date): Promise<WebhookSubscription> {
  const current = await getWebhook(orgId, id, true);
  const next: WebhookSubscription = {
    ...current,
    name: input.name,
    url: input.url,
    events: [...new Set(input.events)],
    description: input.description !== undefined ? input.description : current.description,
    headers: input.headers !== undefined ? (input.headers ?? {}) : current.headers,
    isActive: input.isActive ?? current.isActive,
    circuitBreakerEnabled: input.circuitBreakerEnabled ?? current.circuitBreakerEnabled,
    timeoutSeconds: input.timeoutSeconds ?? current.timeoutSeconds,
    updatedAt: now.toISOString(),
  };
  if (input.isActive === true) Object.assign(next, { consecutiveFailures: 0, pausedAt: null, pausedReason: null });
  await transactWrite([{ Put: { TableName: tableName(), Item: { ...key(orgId, id), entity: 'Webhook', ...next }, ConditionExpression: 'attribute_exists(SK)' } }], () => new NotFound('Webhook'));
  return next;
}

/** Deletes a subscription; its queued deliveries are dropped when they find it gone. @throws NotFound */
export async function deleteWebhook(orgId: string, id: string): Promise<void> {
  try {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: key(orgId, id), ConditionExpression: 'attribute_exists(SK)' }));
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) throw new NotFound('Webhook');
    throw err;
  }
}

/** Rotates the signing secret; later deliveries (including retries) are signed with the new one. */
export async function rotateWebhookSecret(orgId: string, id: string, now: Date): Promise<WebhookSubscription> {
  const secret = newSigningSecret();
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(), Key: key(orgId, id), UpdateExpression: 'SET secret = :s, updatedAt = :u', ConditionExpression: 'attribute_exists(SK)',
        ExpressionAttributeValues: { ':s': secret, ':u': now.toISOString() }, ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem(out.Attributes!);
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) throw new NotFound('Webhook');
    throw err;
  }
}

/** A successful delivery closes the breaker's count. */
export async function recordWebhookSuccess(orgId: string, id: string): Promise<void> {
  // Conditional, so a success only writes when there is a count to clear (including failures recorded while
  // this delivery was in flight).
  await db()
    .send(new UpdateCommand({ TableName: tableName(), Key: key(orgId, id), UpdateExpression: 'SET consecutiveFailures = :z', ConditionExpression: 'consecutiveFailures > :z', ExpressionAttributeValues: { ':z': 0 } }))
    .catch(ignoreMissing);
}

/**
 * Counts a failed delivery; at `CIRCUIT_BREAKER_THRESHOLD` consecutive failures (breaker enabled) pauses the
 * subscription (`isActive: false`, `pausedReason: circuit_breaker`).
 * @returns true when this failure tripped the breaker
 */
export function recordWebhookFailure(orgId: string, id: string, now: Date, threshold = CIRCUIT_BREAKER_THRESHOLD): Promise<boolean> {
  return recordWebhookFailures(orgId, id, 1, now, threshold);
}

/**
 * Counts `failures` failed deliveries in one write (`ADD`; the delivery worker counts an SQS batch's failures of a
 * subscription together: shared/use-cases/delivery-breaker.ts); when the count reaches `threshold` (breaker enabled,
 * subscription active) a second, conditional write pauses the subscription.
 * @param failures a positive integer
 * @returns true when these failures tripped the breaker (false for a missing subscription, a disabled breaker or one
 *   already paused)
 */
export async function recordWebhookFailures(orgId: string, id: string, failures: number, now: Date, threshold = CIRCUIT_BREAKER_THRESHOLD): Promise<boolean> {
  const out = await db()
    .send(new UpdateCommand({ TableName: tableName(), Key: key(orgId, id), UpdateExpression: 'ADD consecutiveFailures :n', ConditionExpression: 'attribute_exists(SK)', ExpressionAttributeValues: { ':n': failures }, ReturnValues: 'ALL_NEW' }))
    .catch(ignoreMissing);
  const s = out?.Attributes;
  if (!s || !s.circuitBreakerEnabled || !s.isActive || Number(s.consecutiveFailures) < threshold) return false;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(), Key: key(orgId, id),
        UpdateExpression: 'SET isActive = :f, pausedAt = :at, pausedReason = :r',
        ConditionExpression: 'isActive = :t AND consecutiveFailures >= :n',
        ExpressionAttributeValues: { ':f': false, ':t': true, ':at': now.toISOString(), ':r': 'circuit_breaker', ':n': threshold },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

function ignoreMissing(err: unknown): undefined {
  if (err instanceof ConditionalCheckFailedException) return undefined;
  throw err;
}

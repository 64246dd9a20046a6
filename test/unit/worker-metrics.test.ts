/**
 * The EMF documents the workers with several outcomes write, through their real handlers and Powertools (metrics
 * on, stdout captured), with the use cases they call replaced by spies: every outcome is its own metric name, the
 * only dimension is `service`, and a batch of mixed outcomes counts each under its own name (a dimension added per
 * outcome used to file the whole batch under the last outcome). test/unit/metric-dimensions.test.ts counts the
 * names these documents may hold.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { APIGatewayProxyEventV2, S3Event } from 'aws-lambda';
import { captureTelemetry, metricNames, type EmfDocument, type Telemetry } from '../support/telemetry.ts';

vi.hoisted(() => Object.assign(process.env, { POWERTOOLS_METRICS_DISABLED: 'false', INBOUND_MAIL_DOMAIN: 'reply.test' }));

vi.mock('#use-cases/messaging/receive-email', () => ({ receiveEmail: vi.fn() }));
vi.mock('#use-cases/messaging/scheduled-email', () => ({ sendScheduledEmail: vi.fn() }));
vi.mock('#use-cases/reminder-send', () => ({ sendReminder: vi.fn() }));
vi.mock('#use-cases/workspace-purge', () => ({ purgeWorkspace: vi.fn() }));
vi.mock('#db/share-links', () => ({ openShareLink: vi.fn(async () => undefined) }));
vi.mock('#ports/blob-store', () => ({ getObjectBytes: vi.fn(async () => new TextEncoder().encode('Subject: hi\r\n\r\nThanks')), presignGet: vi.fn() }));

const { handler: inboundEmail } = await import('#functions/inbound-email/handler');
const { INBOUND_EMAIL_METRICS } = await import('#use-cases/messaging/stored-emails');
const { handler: scheduledSend } = await import('#functions/scheduled-send/handler');
const { SCHEDULED_SEND_METRICS } = await import('#use-cases/scheduled-send');
const { handler: workspacePurge, PURGE_METRICS } = await import('#functions/workspace-purge/handler');
const { handler: publicLinks } = await import('#functions/public-links/handler');
const { SHARE_LINK_METRICS } = await import('#use-cases/open-share-link');
const { receiveEmail } = await import('#use-cases/messaging/receive-email');
const { sendScheduledEmail } = await import('#use-cases/messaging/scheduled-email');
const { sendReminder } = await import('#use-cases/reminder-send');
const { purgeWorkspace } = await import('#use-cases/workspace-purge');

let t: Telemetry;
beforeEach(() => {
  vi.clearAllMocks();
  t = captureTelemetry();
});
afterEach(() => t.restore());

/** The invocation's one EMF document, checked for the `service`-only dimension and names from `declared`. */
function onlyDocument(declared: readonly string[]): EmfDocument {
  const docs = t.metrics();
  expect(docs).toHaveLength(1);
  const [doc] = docs;
  expect(doc._aws.CloudWatchMetrics.map((m) => [m.Namespace, m.Dimensions])).toEqual([['TransactionCoordination', [['service']]]]);
  for (const name of metricNames(doc)) expect(declared).toContain(name);
  return doc;
}

describe('inbound-email', () => {
  const batch = (n: number) => ({ Records: Array.from({ length: n }, (_x, i) => ({ s3: { object: { key: `inbound/m${i}` } } })) }) as unknown as S3Event;

  it('a batch of threaded, unrouted and duplicate emails counts each outcome under its own metric', async () => {
    const threaded = { outcome: 'threaded' as const, orgId: 'o-1', transactionId: 't-1', messageId: 'm-1' };
    vi.mocked(receiveEmail)
      .mockResolvedValueOnce(threaded)
      .mockResolvedValueOnce({ outcome: 'unrouted' })
      .mockResolvedValueOnce({ outcome: 'unrouted' })
      .mockResolvedValueOnce({ outcome: 'duplicate' });

    await inboundEmail(batch(4));

    const doc = onlyDocument(INBOUND_EMAIL_METRICS.names);
    expect(doc).toMatchObject({ InboundEmailsThreaded: 1, InboundEmailsUnrouted: 2, InboundEmailsDuplicate: 1 });
    expect(doc).not.toHaveProperty('outcome');
  });

  it('an empty batch still writes every outcome metric, at 0', async () => {
    await inboundEmail(batch(0));
    expect(onlyDocument(INBOUND_EMAIL_METRICS.names)).toMatchObject({ InboundEmailsThreaded: 0, InboundEmailsUnrouted: 0, InboundEmailsDuplicate: 0 });
  });
});

describe('scheduled-send', () => {
  it.each(['queued', 'failed', 'skipped'] as const)('a scheduled message %s counts under its own metric', async (outcome) => {
    vi.mocked(sendScheduledEmail).mockResolvedValueOnce(outcome);
    await scheduledSend({ orgId: 'o-1', scheduledMessageId: 'm-1' });
    const doc = onlyDocument(SCHEDULED_SEND_METRICS.names);
    expect(metricNames(doc)).toEqual([`ScheduledSends${outcome[0].toUpperCase()}${outcome.slice(1)}`]);
  });

  it('a stale reminder counts as ScheduledSendsStale', async () => {
    vi.mocked(sendReminder).mockResolvedValueOnce('stale');
    await scheduledSend({ orgId: 'o-1', transactionId: 't-1', reminderId: 'r-1', generation: 2 } as never);
    expect(metricNames(onlyDocument(SCHEDULED_SEND_METRICS.names))).toEqual(['ScheduledSendsStale']);
  });
});

describe('workspace-purge', () => {
  it.each([
    ['purged', 'WorkspacesPurged'],
    ['skipped', 'WorkspacePurgesSkipped'],
    ['gone', 'WorkspacePurgesGone'],
  ] as const)('outcome %s counts as %s, with the items and objects removed', async (outcome, name) => {
    vi.mocked(purgeWorkspace).mockResolvedValueOnce({ outcome, items: outcome === 'purged' ? 12 : 0, objects: outcome === 'purged' ? 3 : 0 } as never);
    await workspacePurge({ orgId: 'o-1', deletionId: 'del-1' });
    const doc = onlyDocument(PURGE_METRICS.names);
    expect(metricNames(doc).sort()).toEqual([name, 'PurgedItems', 'PurgedObjects'].sort());
    expect(doc).toMatchObject({ [name]: 1, PurgedItems: outcome === 'purged' ? 12 : 0 });
  });
});

describe('public-links', () => {
  it('an unknown link counts as LinksNotFound', async () => {
    const res = await publicLinks({ routeKey: 'GET /l/{token}', pathParameters: { token: 'nope' } } as unknown as APIGatewayProxyEventV2);
    expect(res.statusCode).toBe(404);
    expect(metricNames(onlyDocument(SHARE_LINK_METRICS.names))).toEqual(['LinksNotFound']);
  });
});

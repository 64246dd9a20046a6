/**
 * `GET /l/{token}`: a shared document link (sent by SMS or in a conversation) opened by its recipient, without
 * credentials. A live link answers `302` to a download URL valid 5 minutes (so a forwarded or logged redirect soon
 * stops working); an unknown, expired or revoked link answers the same plain 404 page, which does not say whether
 * the link ever existed (spec "Tenant isolation": a 404 does not show that an identifier is used).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { getDocument } from '#db/documents';
import { openShareLink } from '#db/share-links';
import { presignGet } from '#ports/blob-store';
import { clockNow } from '#ports/clock';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { metrics, observedHandler } from '#observability/powertools';

/** Validity of the download URL a link redirects to, seconds. */
export const DOWNLOAD_SECONDS = 300;

const NOT_FOUND_PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link not available</title></head><body><h1>This link is not available</h1><p>It may have expired. Ask the sender for a new one.</p></body></html>';

const notFound = (): APIGatewayProxyStructuredResultV2 => ({
  statusCode: 404,
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  body: NOT_FOUND_PAGE,
});

/** Metrics (Count): `LinkOpens` by `outcome` (opened, not_found). */
export const handler = observedHandler(async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
  const token = event.pathParameters?.token ?? '';
  const link = await openShareLink(token, clockNow());
  const doc = link ? await getDocument(link.orgId, link.documentId).catch(() => undefined) : undefined;
  const opened = doc !== undefined && doc.uploadState === 'uploaded';
  metrics.addDimensions({ outcome: opened ? 'opened' : 'not_found' });
  metrics.addMetric('LinkOpens', MetricUnit.Count, 1);
  if (!opened) return notFound();
  const url = await presignGet(doc.s3Key, DOWNLOAD_SECONDS, doc.name);
  return { statusCode: 302, headers: { location: url, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }, body: '' };
});

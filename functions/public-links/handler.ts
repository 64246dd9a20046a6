/**
 * The pages people outside the team open without credentials (lib/public-routes.ts), one function for all:
 * `GET|POST /f/{token}` an intake form (pages/intake-page.ts), `GET /p/{token}` the client portal
 * (pages/portal-page.ts), `GET|POST /d/{token}` a disclosure recipient's page (pages/disclosure-page.ts), and
 * `GET /l/{token}`, a shared document link (sent by SMS or in a conversation) opened by its recipient, without
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
import { metricSet, metrics, observedHandler } from '#observability/powertools';
import { notFound } from './pages/html.ts';
import { intakePage } from './pages/intake-page.ts';
import { portalPage } from './pages/portal-page.ts';
import { disclosurePage } from './pages/disclosure-page.ts';

/** Validity of the download URL a link redirects to, seconds. */
export const DOWNLOAD_SECONDS = 300;

/** Which page a route serves (by its route key, as API Gateway and the local server set it). */
const PAGES: Record<string, (event: APIGatewayProxyEventV2, token: string, now: Date) => Promise<APIGatewayProxyStructuredResultV2>> = {
  'GET /f/{token}': intakePage,
  'POST /f/{token}': intakePage,
  'GET /p/{token}': (_e, token, now) => portalPage(token, now),
  'GET /d/{token}': disclosurePage,
  'POST /d/{token}': disclosurePage,
};

/** The worker's metrics (Count; dimension `service` only). */
export const PUBLIC_LINK_METRICS = metricSet(['PageViews', 'LinksOpened', 'LinksNotFound']);

/**
 * Metrics (Count): `PageViews`, with the EMF properties `page` (the route key) and `status` (searchable in Logs
 * Insights, not dimensions); `LinksOpened` or `LinksNotFound` for a shared document link.
 */
export const handler = observedHandler(async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
  const token = event.pathParameters?.token ?? '';
  const serve = PAGES[event.routeKey];
  if (serve) {
    const result = await serve(event, token, clockNow());
    metrics.addMetadata('page', event.routeKey);
    metrics.addMetadata('status', String(result.statusCode ?? 200));
    PUBLIC_LINK_METRICS.add('PageViews', MetricUnit.Count, 1);
    return result;
  }
  const link = await openShareLink(token, clockNow());
  const doc = link ? await getDocument(link.orgId, link.documentId).catch(() => undefined) : undefined;
  const opened = doc !== undefined && doc.uploadState === 'uploaded';
  PUBLIC_LINK_METRICS.add(opened ? 'LinksOpened' : 'LinksNotFound', MetricUnit.Count, 1);
  if (!opened) return notFound();
  const url = await presignGet(doc.s3Key, DOWNLOAD_SECONDS, doc.name);
  return { statusCode: 302, headers: { location: url, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }, body: '' };
});

/**
 * The pages people outside the team open without credentials (lib/public-routes.ts), one function for all: intake
 * form `/f/`, client portal `/p/`, disclosure page `/d/` (functions/public-links/pages/), and a shared document link
 * `/l/`, a `302` to a short-lived download URL (shared/use-cases/open-share-link.ts); any unknown token a plain 404.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { clockNow } from '#ports/clock';
import { openSharedDocument } from '#use-cases/open-share-link';
import { metricSet, metrics, observedHandler } from '#observability/powertools';
import { notFound } from './pages/html.ts';
import { intakePage } from './pages/intake-page.ts';
import { portalPage } from './pages/portal-page.ts';
import { disclosurePage } from './pages/disclosure-page.ts';

/** Which page a route serves (by its route key, as API Gateway and the local server set it). */
const PAGES: Record<string, (event: APIGatewayProxyEventV2, token: string, now: Date) => Promise<APIGatewayProxyStructuredResultV2>> = {
  'GET /f/{token}': intakePage,
  'POST /f/{token}': intakePage,
  'GET /p/{token}': (_e, token, now) => portalPage(token, now),
  'GET /d/{token}': disclosurePage,
  'POST /d/{token}': disclosurePage,
};

/** `PageViews` (Count), with the EMF properties `page` (route key) and `status`: searchable, not dimensions. */
export const PAGE_METRICS = metricSet(['PageViews']);

export const handler = observedHandler(async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
  const token = event.pathParameters?.token ?? '';
  const serve = PAGES[event.routeKey];
  if (!serve) {
    const url = await openSharedDocument(token, clockNow());
    return url ? { statusCode: 302, headers: { location: url, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }, body: '' } : notFound();
  }
  const result = await serve(event, token, clockNow());
  metrics.addMetadata('page', event.routeKey);
  metrics.addMetadata('status', String(result.statusCode ?? 200));
  PAGE_METRICS.add('PageViews', MetricUnit.Count, 1);
  return result;
});

/**
 * The pages people outside the team open without credentials (lib/public-routes.ts), one function for all: intake
 * form `/f/`, client portal `/p/`, disclosure page `/d/` and shared document link `/l/` (functions/public-links/pages/).
 * It also serves the pages' one stylesheet, `GET /assets/pages.css` (shared/http/pages/stylesheet.ts), which the
 * OAuth sign-in and consent pages link as well.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { clockNow } from '#ports/clock';
import { metricSet, metrics, observedHandler } from '#observability/powertools';
import { STYLESHEET_PATH, stylesheetResponse } from '#http/pages/stylesheet';
import { sharedLink } from './pages/shared-link.ts';
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
  if (event.routeKey === `GET ${STYLESHEET_PATH}`) return stylesheetResponse(event.rawQueryString);
  const token = event.pathParameters?.token ?? '';
  const serve = PAGES[event.routeKey];
  if (!serve) return sharedLink(event, token, clockNow());
  const result = await serve(event, token, clockNow());
  metrics.addMetadata('page', event.routeKey);
  metrics.addMetadata('status', String(result.statusCode ?? 200));
  PAGE_METRICS.add('PageViews', MetricUnit.Count, 1);
  return result;
});
